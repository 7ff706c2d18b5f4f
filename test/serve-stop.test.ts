import { afterEach, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from 'userbot-gateway/client'
import { type ServerProcess, startServerProcess } from './build/server-process'
import { connectWs } from './helpers-ws'

/**
 * `bun src/entry/main.ts` told to stop (SIGTERM) while clients hold sockets that never close by
 * themselves: the command in flight is answered, every socket gets 1001, the process exits 0
 * within SHUTDOWN_TIMEOUT; past it, it exits 1 with one line; the typed client comes back, to the
 * same URL, where another process of the deployment serves (REUSE_PORT).
 */
const ROOT = join(import.meta.dir, '..')
const MAIN = join(ROOT, 'src', 'entry', 'main.ts')
const HELD = './test/gateway/plugins/held-commands.ts'
const cleanup: Array<() => Promise<unknown> | unknown> = []
afterEach(async () => {
	for (const c of cleanup.splice(0).reverse()) await c()
})

function tempDir() {
	const dir = mkdtempSync(join(tmpdir(), 'ubg-stop-'))
	cleanup.push(() => rmSync(dir, { recursive: true, force: true }))
	return dir
}

async function start(dataDir: string, extra: Record<string, string> = {}): Promise<ServerProcess> {
	const server = await startServerProcess([process.execPath, '--no-env-file', MAIN], {
		cwd: ROOT,
		env: {
			PATH: process.env.PATH ?? '',
			HOME: tmpdir(),
			DATA_DIR: dataDir,
			PORT: '0',
			TDLIB_BACKEND: 'emulator',
			LOG_LEVEL: 'info',
			...extra,
		},
	})
	cleanup.push(() => server.stop())
	return server
}

const post = (url: string, path: string, body: unknown, access?: string) =>
	fetch(`${url}${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...(access ? { authorization: `Bearer ${access}` } : {}) },
		body: JSON.stringify(body),
	})

/** A user, a bearer token and a userbot (created, not logged in: the held commands need none). */
async function account(url: string) {
	const email = `stop-${Date.now()}-${Math.random()}@example.com`
	const password = 'Correct-Horse-42'
	expect(
		(await post(url, '/accounts/register/', { email, password, first_name: 'S', last_name: 'T' })).status,
	).toBe(201)
	const { access } = (await (await post(url, '/accounts/token/', { email, password })).json()) as {
		access: string
	}
	const created = (await (await post(url, '/api/userbots/', { name: 'held' }, access)).json()) as {
		id: number
	}
	return { access, userbotId: created.id }
}

function logLines(server: ServerProcess) {
	return server
		.output()
		.split('\n')
		.filter((l) => l.startsWith('{'))
		.map((l) => JSON.parse(l) as { level: string; msg: string })
}

describe('SIGTERM', () => {
	it('answers the command in flight, closes every socket with 1001 and exits 0', async () => {
		const server = await start(tempDir(), { PLUGINS: `accounts,userbots,${HELD}` })
		const { access, userbotId } = await account(server.url)
		// Two sockets that never close by themselves: one idle, one with a command in flight.
		const idle = await connectWs(server.url, { bearer: access })
		const busy = await connectWs(server.url, { bearer: access })
		const inFlight = busy.command({ action: 'test_answer_after_sigterm', userbot_id: userbotId }, 20_000)
		// A later frame answered: the first was taken and runs (frames are handled in order).
		await busy.command({ action: 'no_such_action', userbot_id: userbotId })

		server.proc.kill('SIGTERM')
		expect((await inFlight).payload).toMatchObject({
			type: 'test_answer_after_sigterm',
			result: { answered: 'after SIGTERM' },
		})
		expect(await busy.closed).toEqual({ code: 1001, reason: 'server shutting down' })
		expect(await idle.closed).toEqual({ code: 1001, reason: 'server shutting down' })
		// Exits of itself: 0, not the 1 of SHUTDOWN_TIMEOUT nor the SIGKILL of `stop()`.
		expect(await server.proc.exited).toBe(0)
		const lines = logLines(server)
		expect(lines.filter((l) => l.level === 'error')).toEqual([])
		expect(lines.map((l) => l.msg)).toContain('stopped')
	}, 30_000)

	it('exits 1 with one line once SHUTDOWN_TIMEOUT has passed, whatever still runs', async () => {
		const server = await start(tempDir(), { PLUGINS: `accounts,userbots,${HELD}`, SHUTDOWN_TIMEOUT: '300' })
		const { access, userbotId } = await account(server.url)
		const busy = await connectWs(server.url, { bearer: access })
		void busy.command({ action: 'test_never_answered', userbot_id: userbotId }, 20_000).catch(() => undefined)
		await busy.command({ action: 'no_such_action', userbot_id: userbotId })

		server.proc.kill('SIGTERM')
		expect(await server.proc.exited).toBe(1)
		const errors = logLines(server).filter((l) => l.level === 'error')
		expect(errors).toEqual([
			expect.objectContaining({
				msg: 'stop took longer than SHUTDOWN_TIMEOUT: exiting anyway',
				timeoutMs: 300,
			}),
		])
		// The socket did not outlive the process, and was not closed as if all went well.
		expect((await busy.closed).code).toBe(1006)
	}, 30_000)

	it('sends the typed client back to the same URL, served by the deployment’s other process', async () => {
		const dir = tempDir()
		const first = await start(dir, { REUSE_PORT: 'true' })
		const { access } = await account(first.url)
		let closed: (close: [number, string]) => void = () => {}
		const firstClose = new Promise<[number, string]>((resolve) => {
			closed = resolve
		})
		const client = createClient({
			url: first.url,
			token: access,
			reconnect: { initialDelayMs: 10, maxDelayMs: 100 },
			onClose: (code, reason) => closed([code, reason]),
		})
		cleanup.push(() => client.close())
		const ask = () => client.request({ action: 'get_account_ttl', userbot_id: 999_999_999 })
		expect(await ask()).toMatchObject({ error: 'userbot not found' })
		// The second process of the deployment, on the same port; then the first stops.
		const second = await start(dir, { REUSE_PORT: 'true', PORT: new URL(first.url).port })
		first.proc.kill('SIGTERM')
		expect(await firstClose).toEqual([1001, 'server shutting down'])
		expect(await first.proc.exited).toBe(0)
		// The next command opens a new connection to the same URL: the second answers it.
		expect(await ask()).toMatchObject({ error: 'userbot not found' })
		expect(client.connected).toBe(true)
		expect(second.proc.exitCode).toBeNull()
	}, 40_000)
})
