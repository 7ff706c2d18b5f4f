import { afterAll, describe, expect, it } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { memberFor, openSocket, removeDir, tempDir } from '../plugins/userbots/support'

const dataDir = tempDir()
const loggedDir = tempDir()
const procs: Array<ReturnType<typeof Bun.spawn>> = []
afterAll(async () => {
	for (const p of procs) {
		p.kill('SIGTERM')
		await p.exited
	}
	removeDir(dataDir)
	removeDir(loggedDir)
})

/** Not the defaults: the banner says the lifetimes the server was configured with. */
const LIFETIMES = { ACCESS_TOKEN_LIFETIME: '240', REFRESH_TOKEN_LIFETIME: '7200' }

/** Runs `bun src/entry/demo.ts` and reads what it prints until it is ready. */
async function runDemo(): Promise<string> {
	const proc = Bun.spawn([process.execPath, 'src/entry/demo.ts'], {
		env: { ...process.env, ...LIFETIMES, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' },
		stdout: 'pipe',
		stderr: 'inherit',
	})
	procs.push(proc)
	let out = ''
	const decoder = new TextDecoder()
	for await (const chunk of proc.stdout) {
		out += decoder.decode(chunk)
		if (out.includes('Ctrl-C')) break
	}
	return out
}

/**
 * Runs the demo with its log on (LOG_LEVEL=info), stdout and stderr on one pipe in the order they
 * were written, as a terminal shows them; stops it once the banner is out and reads to the end.
 */
async function runDemoLogged(dir: string): Promise<string[]> {
	const proc = Bun.spawn(['sh', '-c', 'exec "$0" src/entry/demo.ts 2>&1', process.execPath], {
		env: { ...process.env, DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'info' },
		stdout: 'pipe',
	})
	procs.push(proc)
	let out = ''
	const decoder = new TextDecoder()
	let stopped = false
	for await (const chunk of proc.stdout) {
		out += decoder.decode(chunk, { stream: true })
		if (!stopped && out.includes('Ctrl-C')) {
			stopped = true
			proc.kill('SIGTERM')
		}
	}
	expect(await proc.exited).toBe(0)
	procs.splice(procs.indexOf(proc), 1)
	return out.split('\n')
}

/** The `msg` of each log line (a JSON line) among `lines`. */
const logged = (lines: string[]) =>
	lines.filter((l) => l.startsWith('{"time"')).map((l) => (JSON.parse(l) as { msg: string }).msg)

/** The banner is one block, below every line the start and the seeding logged; below it, the stop's. */
function expectBannerAfterLog(lines: string[]) {
	const first = lines.findIndex((l) => l.startsWith('Demo server on the Telegram emulator'))
	const last = lines.findIndex((l) => l.includes('Press Ctrl-C to stop.'))
	expect(first).toBeGreaterThan(0)
	expect(last).toBeGreaterThan(first)
	expect(logged(lines.slice(first, last + 1))).toEqual([])
	const above = logged(lines.slice(0, first))
	// The start's lines, and the access line of the demo's own socket, closed before the banner.
	expect(above).toContain('supervisor ready')
	expect(above).toContain('ws')
	expect(logged(lines.slice(last + 1))).toEqual(['stopped'])
}

type Pair = { access?: string; refresh?: string }

/** Runs a printed command line with sh (and this machine's node): the token pair it printed. */
async function pairFrom(command: string): Promise<Pair> {
	const run = Bun.spawn(['sh', '-c', command], { stdout: 'pipe', stderr: 'pipe' })
	expect(await run.exited).toBe(0)
	const pair = JSON.parse(await new Response(run.stdout).text()) as Pair
	expect(pair.access).toBeString()
	expect(pair.refresh).toBeString()
	return pair
}

/** The refresh token a line asks for (`'<refresh>'`), as one pastes it. */
const withRefresh = (command: string, pair: Pair) => {
	expect(command).toEndWith(` '<refresh>'`)
	return command.replace(/'<refresh>'$/, `'${pair.refresh}'`)
}

/**
 * Every command the demo prints runs on a machine with only Node and npm: no bun, bunx or curl.
 * The token and refresh lines are run as printed (by sh, with this machine's node), the refresh
 * with the token line's refresh token, and the README's refresh line too; the wscat line would
 * fetch wscat from the npm registry, which tests may not reach, so its shape is checked.
 */
async function expectCommandsForNodeAndNpm(out: string, url: string) {
	const commands = out
		.split('\n')
		.filter((l) => /^ {2}\S/.test(l) && !/^ {2}(user|password|userbot) |^ {2}\{/.test(l))
		.map((l) => l.trim())
	expect(commands).toHaveLength(3)
	for (const c of commands) expect(c).toMatch(/^(node|npx|npm) /)
	expect(out).not.toMatch(/\b(bunx|curl)\b|^\s*bun /m)
	const [token, refresh, wscat] = commands
	const pair = await pairFrom(token ?? '')
	const renewed = await pairFrom(withRefresh(refresh ?? '', pair))
	expect(renewed.refresh).not.toBe(pair.refresh)
	const readme = readFileSync(join(import.meta.dir, '..', '..', 'README.md'), 'utf8')
	const readmeRefresh = /^node -e .*\/accounts\/token\/refresh\/.*$/m.exec(readme)?.[0] ?? ''
	await pairFrom(withRefresh(readmeRefresh.replace('http://localhost:8000', url), renewed))
	expect(wscat).toBe(`npx -y wscat -c ${url.replace(/^http/, 'ws')}/ws -H "Authorization: Bearer <access>"`)
}

describe('npm run demo', () => {
	it('prints a login and a command that works, and starts again on its own data', async () => {
		const out = await runDemo()
		expect(out).toContain('demo@example.com')
		// How long a token lives, as configured, and how to get a new one.
		expect(out).toContain('The access token lives 240 s (ACCESS_TOKEN_LIFETIME)')
		expect(out).toContain('refresh token (it lives 7200 s and works once) at POST /accounts/token/refresh/')
		// The demo seeded and asked through the typed clients: the Team Chat's members came back.
		expect(out).toMatch(/Team Chat has [1-9][0-9]* members/)
		const url = /Telegram emulator: (http:\/\/\S+)/.exec(out)?.[1] ?? ''
		const command = JSON.parse(/^\s+(\{"action".*\})$/m.exec(out)?.[1] ?? '{}') as Record<string, unknown>
		const password = /password (\S+)/.exec(out)?.[1] ?? ''
		const member = await memberFor(url, 'demo@example.com', password)
		const ws = await openSocket(url, member.access)
		const reply = await ws.command(String(command.action), Number(command.userbot_id), command)
		ws.close()
		expect(reply.error).toBeUndefined()
		expect(reply.type).toBe('send_message')
		await expectCommandsForNodeAndNpm(out, url)

		const first = procs.pop()
		first?.kill('SIGTERM')
		expect(await first?.exited).toBe(0)
		const second = await runDemo()
		expect(second).toContain(`userbot  #${command.userbot_id}`)
	})

	it('prints its banner as one block after the log lines of its start, the first time and again', async () => {
		expectBannerAfterLog(await runDemoLogged(loggedDir))
		expectBannerAfterLog(await runDemoLogged(loggedDir))
	})
})
