import { writeSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { failureLine, startServer } from '../platform/bun/serve'
import { shutDown } from '../platform/shutdown'
import { createClient, createRestClient } from '../public/client'
import type { Config } from '../server/config'

/**
 * `npm run demo`: the quickest way to try the command channel. Starts the server on the Telegram
 * emulator, then seeds it through its own public API (as a newcomer would): a company and its
 * owner, and a userbot logged in to an emulated account. Prints how to log in and a first command.
 * The data stays in `DATA_DIR` (default `./data/demo`), so a second run finds it all again.
 */
const EMAIL = process.env.DEMO_EMAIL ?? 'demo@example.com'
const PASSWORD = process.env.DEMO_PASSWORD ?? 'Lamp-Orbit-4821'
// Bob Baker, a seeded emulator account: test-DC phone 99966 2 1234, code 22222.
const PHONE = '9996621234'
const CODE = '22222'
const TEAM_CHAT = -2001

/** A script for `node -e`: POSTs a JSON body (`body`, JavaScript source) to `url` and prints the answer. */
const postScript = (url: string, body: string) =>
	`fetch(${JSON.stringify(url)}, {method: "POST", headers: {"content-type": "application/json"}, body: JSON.stringify(${body})}).then((r) => r.text()).then(console.log)`

/** A POSIX shell word: the printed commands stay right whatever DEMO_EMAIL and DEMO_PASSWORD hold. */
const shellWord = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`

class DemoSetupError extends Error {
	override name = 'DemoSetupError'
}

/** Writes all of `text` to `fd` before returning. */
function writeAll(fd: number, text: string) {
	const bytes = Buffer.from(text)
	for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at)
}

/**
 * The server's log lines, held while the demo starts and seeds itself and then written before the
 * banner, so that the banner comes as one block after them (not with the access line of the demo's
 * own socket below it). From then on each line is written as it comes. Written with `writeSync`:
 * Bun queues a `process.stdout.write` to a full pipe and lets a later `process.stderr.write` pass it.
 */
function heldLog() {
	let held: string[] | null = []
	return {
		write(line: string) {
			if (held) held.push(line)
			else process.stderr.write(`${line}\n`)
		},
		/** Writes the held lines to stderr, then `text` to stdout, and lets later lines through. */
		release(text = '') {
			const lines = held ?? []
			held = null
			writeAll(2, lines.map((l) => `${l}\n`).join(''))
			writeAll(1, text)
		},
	}
}

/** How long the demo waits for the server to see its seeding socket closed, at most. */
const SOCKET_CLOSE_WAIT_MS = 5_000

async function main() {
	const log = heldLog()
	const started = await startServer(process.env, {
		overrides: { DATA_DIR: process.env.DATA_DIR || join('data', 'demo'), TDLIB_BACKEND: 'emulator' },
		logWrite: log.write,
	})
	if (!started.ok) {
		log.release()
		process.stderr.write(`${started.line}\n`)
		process.exit(2)
	}
	const { config, instance, url } = started
	let banner: string
	try {
		banner = await seed(config, url)
		// The server logs the seeding socket when it has seen it close: that line belongs above.
		const sockets = () => ('socketStats' in instance ? instance.socketStats().sockets : 0)
		for (let waited = 0; sockets() > 0 && waited < SOCKET_CLOSE_WAIT_MS; waited += 10) await Bun.sleep(10)
	} catch (err) {
		log.release()
		await instance.app.stop()
		await instance.close()
		process.stderr.write(`${failureLine(err)}\n`)
		process.exit(2)
	}

	// Before the banner: a Ctrl-C the moment it shows stops the server as any other does.
	let stopping = false
	const stop = async () => {
		if (stopping) return
		stopping = true
		const code = await shutDown(
			{
				stopListening: () => instance.app.stop(false),
				goAway: 'goAway' in instance ? instance.goAway : undefined,
				close: instance.close,
			},
			config.shutdownTimeoutMs,
			instance.ctx.log,
		)
		process.exit(code)
	}
	process.on('SIGINT', () => void stop())
	process.on('SIGTERM', () => void stop())
	log.release(banner)
}

type SetupAnswer = { status: number; error: { value: unknown } | null }
type DemoBot = { id: number; authorization_state: string }

const fail = (step: string, res: SetupAnswer): never => {
	throw new DemoSetupError(`demo setup failed at ${step}: ${res.status} ${JSON.stringify(res.error?.value)}`)
}

/**
 * Seeds the demo's world through the public API; the banner to print. Seeded through the service's
 * own typed clients, as an API user would: Eden for REST, then the command channel.
 */
async function seed(config: Config, url: string): Promise<string> {
	const access = await signIn(url)
	const bot = await loggedInUserbot(createRestClient(url, { token: access }))
	const members = await teamChatMembers(url, access, bot)
	return banner(config, url, bot, members)
}

/** Registers the demo's owner (a second run finds it there) and answers its access token. */
async function signIn(url: string): Promise<string> {
	const anonymous = createRestClient(url)
	const registered = await anonymous.accounts.register.post({
		email: EMAIL,
		password: PASSWORD,
		first_name: 'Demo',
		last_name: 'Owner',
	})
	// A second run finds the user there already (400: the e-mail is taken).
	if (registered.status !== 201 && registered.status !== 400) fail('register', registered)
	const token = await anonymous.accounts.token.post({ email: EMAIL, password: PASSWORD })
	if (!token.data) return fail('token (is DEMO_PASSWORD the one of the first run?)', token)
	return token.data.access
}

/** The demo's userbot, logged in: one that is already, else the first, else a new one. */
async function loggedInUserbot(rest: ReturnType<typeof createRestClient>): Promise<DemoBot> {
	const list = await rest.api.userbots.get()
	const existing = list.data ?? []
	let bot: DemoBot | undefined =
		existing.find((b) => b.authorization_state === 'authorizationStateReady') ?? existing[0]
	if (!bot) {
		const created = await rest.api.userbots.post({ name: 'Demo userbot' })
		if (!created.data) return fail('create userbot', created)
		bot = created.data
	}
	if (bot.authorization_state !== 'authorizationStateReady') {
		const steps = rest.api.userbots({ id: String(bot.id) })
		const phone = await steps.phone.post({ phone_number: PHONE })
		if (phone.status !== 200) fail('phone', phone)
		const code = await steps.code.post({ code: CODE })
		if (code.status !== 200) fail('code', code)
	}
	return bot
}

/** The first command, through the typed client: how many members the seeded Team Chat has. */
async function teamChatMembers(url: string, access: string, bot: DemoBot): Promise<number> {
	const client = createClient({ url, token: access, reconnect: false })
	try {
		const list = await client.send('get_chat_members', { userbot_id: bot.id, chat_id: TEAM_CHAT })
		return list.total_count
	} catch (err) {
		throw new DemoSetupError(`demo setup failed at the first command: ${(err as Error).message}`)
	} finally {
		client.close()
	}
}

/** What the demo prints once it is up: who to log in as, and how to take a token and send a command. */
function banner(config: Config, url: string, bot: DemoBot, members: number): string {
	const wsUrl = `${url.replace(/^http/, 'ws')}/ws`
	const example = JSON.stringify({
		action: 'send_message',
		userbot_id: bot.id,
		chat_id: TEAM_CHAT,
		text: 'Hello!',
	})
	// Only Node and npm are assumed: `node -e` with its built-in fetch, and wscat through npx.
	const tokenScript = postScript(
		`${url}/accounts/token/`,
		JSON.stringify({ email: EMAIL, password: PASSWORD }),
	)
	// The refresh token is the command's one argument, so that it is pasted once, as it came.
	const refreshScript = postScript(`${url}/accounts/token/refresh/`, '{refresh: process.argv[1]}')
	const lines = [
		'',
		`Demo server on the Telegram emulator: ${url}  (data in ${resolve(config.dataDir)})`,
		'',
		`  user     ${EMAIL}`,
		`  password ${PASSWORD}`,
		`  userbot  #${bot.id}, logged in as +${PHONE} (emulated account "Bob Baker")`,
		'',
		`Web console: open ${url}/ in a browser and log in with the user above.`,
		'',
		'Take a bearer token (it prints {"access": ..., "refresh": ...}):',
		`  node -e ${shellWord(tokenScript)}`,
		'or log in with a session cookie at POST /accounts/login/ (same body).',
		`The access token lives ${config.accessTokenLifetime} s (ACCESS_TOKEN_LIFETIME). Then take a new pair with the`,
		`refresh token (it lives ${config.refreshTokenLifetime} s and works once) at POST /accounts/token/refresh/,`,
		`  node -e ${shellWord(refreshScript)} '<refresh>'`,
		'or run the token line above again.',
		'',
		`Open the command channel (${wsUrl}) with the access token, e.g.:`,
		`  npx -y wscat -c ${wsUrl} -H "Authorization: Bearer <access>"`,
		'and send a command (it posts to the seeded "Team Chat"):',
		`  ${example}`,
		'A channel opened with a bearer token closes (1008 credentials expired) when the token expires,',
		'unless it is sent a fresh access token first: {"action":"authenticate","access":"<access>"}.',
		'',
		`From TypeScript, the typed client (userbot-gateway/client; docs/development.md#typed-client) just asked:`,
		`Team Chat has ${members} members. API documentation: ${url}/api/docs (OpenAPI at`,
		'/api/openapi.json, every command at /api/commands/).',
		'',
		'Add your own userbot: POST /api/userbots/, then /phone/ and /code/. Emulated accounts use',
		"Telegram's test-DC numbers 99966XYYYY with code XXXXX (X five times); 9996631111 (code 33333)",
		'also asks for the 2FA password "secret-2fa". Press Ctrl-C to stop.',
		'',
	]
	return `${lines.join('\n')}\n`
}

await main()
