import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import {
	chmodSync,
	copyFileSync,
	existsSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@libsql/client'
import { buildBinary } from '../../src/build/compile'
import { tdjsonPath } from '../../src/runtime/telegram/tdjson'
import { runToEnd, startServerProcess } from './server-process'
import { consoleSmoke, restSmoke, wsSmoke } from './smoke'

/**
 * `npm run build` for real: the executable is built, copied alone into a temporary folder (no
 * node_modules anywhere above it) and started from another empty folder, as a self-hoster would.
 * The bundle keeps build-time paths of the source tree (`import.meta.url` of db/client.ts, for one),
 * so a binary that still read a file from there would pass on this machine and fail on a server:
 * where the tests may (root, `unshare`), every run hides the source tree under an empty tmpfs.
 */
const root = join(import.meta.dir, '..', '..')
let binDir: string
let binary: string
let hideSource = false
const dirs: string[] = []

beforeAll(async () => {
	const built = await buildBinary()
	binDir = mkdtempSync(join(tmpdir(), 'ubg-bin-'))
	binary = join(binDir, 'userbot-gateway')
	copyFileSync(built.outfile, binary)
	chmodSync(binary, 0o755)
	const probe = await runToEnd(sourceHidden(['test', '!', '-e', join(root, 'package.json')], true), {
		cwd: binDir,
		env: baseEnv(binDir),
	}).catch(() => ({ code: 1 }))
	hideSource = probe.code === 0
	if (!hideSource)
		console.log(
			'binary tests: cannot hide the source tree here (needs root and unshare); running with it visible',
		)
}, 120_000)

/** `cmd` in a mount namespace where the source tree is an empty folder (when `hide`). */
function sourceHidden(cmd: string[], hide = hideSource): string[] {
	if (!hide) return cmd
	return ['unshare', '-m', 'sh', '-c', 'mount -t tmpfs tmpfs "$0" && exec "$@"', root, ...cmd]
}
afterAll(() => {
	for (const d of [...dirs.splice(0), binDir]) rmSync(d, { recursive: true, force: true })
})

function emptyFolder(): string {
	const d = mkdtempSync(join(tmpdir(), 'ubg-run-'))
	dirs.push(d)
	return d
}

const baseEnv = (home: string): Record<string, string> => ({ PATH: process.env.PATH ?? '', HOME: home })

/** The processes whose parent is `pid`, with their command lines. */
function childrenOf(pid: number): string[][] {
	const found: string[][] = []
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
			const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
			if (ppid === pid) found.push(readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean))
		} catch {
			// The process left while we looked.
		}
	}
	return found
}

describe('the compiled binary', () => {
	it('answers --version and --help, and refuses an unknown command with exit code 2', async () => {
		const cwd = emptyFolder()
		const version = await runToEnd(sourceHidden([binary, '--version']), { cwd, env: baseEnv(cwd) })
		expect(version.code).toBe(0)
		expect(version.stdout).toMatch(/^userbot-gateway \d+\.\d+\.\d+ \(TDLib 1\.8\.65, Bun \d+\.\d+\.\d+\)\n$/)
		const help = await runToEnd(sourceHidden([binary, '--help']), { cwd, env: baseEnv(cwd) })
		expect(help.code).toBe(0)
		expect(help.stdout).toContain('migrate')
		const unknown = await runToEnd(sourceHidden([binary, 'serv']), { cwd, env: baseEnv(cwd) })
		expect(unknown.code).toBe(2)
		expect(unknown.stderr).toBe('unknown command "serv": see --help\n')
		// Nothing was written for a command that only talks.
		expect(readdirSync(cwd)).toEqual([])
	})

	it('applies its embedded migrations with `migrate` and exits', async () => {
		const cwd = emptyFolder()
		const run = await runToEnd(sourceHidden([binary, 'migrate']), { cwd, env: baseEnv(cwd) })
		expect(run.stderr).toBe('')
		expect(run.stdout).toBe(`migrations applied: ${join(cwd, 'data', 'app.db')}\n`)
		expect(run.code).toBe(0)
		const db = createClient({ url: `file:${join(cwd, 'data', 'app.db')}` })
		try {
			const applied = await db.execute('SELECT count(*) AS n FROM __drizzle_migrations')
			const journal = JSON.parse(
				readFileSync(join(root, 'db', 'migrations', 'meta', '_journal.json'), 'utf8'),
			) as { entries: unknown[] }
			expect(Number(applied.rows[0]?.n)).toBe(journal.entries.length)
			const tables = await db.execute(
				"SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'user_profile'",
			)
			expect(tables.rows).toHaveLength(1)
		} finally {
			db.close()
		}
	})

	it('serves from an empty folder: accounts, a WebSocket command on the emulator, /health, the console', async () => {
		const cwd = emptyFolder()
		const server = await startServerProcess(sourceHidden([binary]), {
			cwd,
			env: { ...baseEnv(cwd), PORT: '0', TDLIB_BACKEND: 'emulator' },
		})
		try {
			// Its supervisor child is the binary itself, started with the hidden subcommand.
			expect(childrenOf(server.proc.pid)).toContainEqual([binary, 'supervisor-child'])
			const { access } = await restSmoke(server.url)
			await wsSmoke(server.url, access)
			await consoleSmoke(server.url)
		} finally {
			expect(await server.stop()).toBe(0)
		}
		expect(server.output()).not.toMatch(/"level":"error"/)
	})

	it('writes the webhook outbox on its writer thread, whose module it carries', async () => {
		const cwd = emptyFolder()
		let received: () => void = () => {}
		const delivered = new Promise<void>((resolve) => {
			received = resolve
		})
		const receiver = Bun.serve({
			hostname: '127.0.0.1',
			port: 0,
			fetch() {
				received()
				return new Response(null, { status: 204 })
			},
		})
		const server = await startServerProcess(sourceHidden([binary]), {
			cwd,
			env: {
				...baseEnv(cwd),
				PORT: '0',
				TDLIB_BACKEND: 'emulator',
				WEBHOOK_ALLOW_HTTP: 'true',
				WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
			},
		})
		const writerLines = () =>
			server
				.output()
				.split('\n')
				.filter((line) => line.includes('webhook writer thread'))
		try {
			const { access } = await restSmoke(server.url)
			const auth = { authorization: `Bearer ${access}`, 'content-type': 'application/json' }
			const made = await fetch(`${server.url}/api/webhooks/`, {
				method: 'POST',
				headers: auth,
				body: JSON.stringify({ url: `http://127.0.0.1:${receiver.port}/hook` }),
			})
			expect(made.status).toBe(201)
			const { id } = (await made.json()) as { id: number }
			const test = await fetch(`${server.url}/api/webhooks/${id}/test/`, { method: 'POST', headers: auth })
			expect(test.status).toBe(202)
			await delivered
			// The delivery's outcome is the outbox's first write after the start: the thread starts for it,
			// or the outbox says it writes on the event loop instead.
			for (let i = 0; i < 200 && writerLines().length === 0; i++) await Bun.sleep(50)
		} finally {
			expect(await server.stop()).toBe(0)
			receiver.stop(true)
		}
		const lines = writerLines().map((line) => JSON.parse(line) as { level: string; msg: string })
		expect(lines).toEqual([expect.objectContaining({ level: 'info', msg: 'webhook writer thread started' })])
	})

	it('reads .env in the server and never in its supervisor child', async () => {
		const cwd = emptyFolder()
		// The server: `.env` picks the plugins.
		await Bun.write(join(cwd, '.env'), 'PLUGINS=accounts\nTDLIB_BACKEND=emulator\n')
		const server = await startServerProcess(sourceHidden([binary]), {
			cwd,
			env: { ...baseEnv(cwd), PORT: '0' },
		})
		try {
			expect(server.output()).toContain('"plugins":["accounts"]')
			expect((await fetch(`${server.url}/api/userbots/`)).status).toBe(404)
		} finally {
			await server.stop()
		}
		// The child, the same executable: a `.env` holding everything it needs is not read.
		await Bun.write(
			join(cwd, '.env'),
			`SUPERVISOR_TRANSPORT=socket\nSUPERVISOR_SOCKET=${join(cwd, 'no.sock')}\n`,
		)
		const child = await runToEnd(sourceHidden([binary, 'supervisor-child']), { cwd, env: baseEnv(cwd) })
		expect(child.code).toBe(1)
		expect(child.stderr).toBe(
			'supervisor child failed to start: environment: SUPERVISOR_TRANSPORT is missing or invalid\n',
		)
	})
})

describe('the compiled binary with real TDLib, offline', () => {
	const API = { TELEGRAM_API_ID: '1', TELEGRAM_API_HASH: '0123456789abcdef0123456789abcdef' }

	it('copies its libtdjson into DATA_DIR/cache once, and its userbots reach WaitPhoneNumber', async () => {
		const cwd = emptyFolder()
		const env = { ...baseEnv(cwd), ...API, PORT: '0', TDLIB_BACKEND: 'tdlib', TDLIB_OFFLINE: '1' }
		let server = await startServerProcess(sourceHidden([binary]), { cwd, env })
		let cached: string
		let inode: number
		try {
			const { access } = await restSmoke(server.url)
			const auth = { authorization: `Bearer ${access}`, 'content-type': 'application/json' }
			const created = await fetch(`${server.url}/api/userbots/`, {
				method: 'POST',
				headers: auth,
				body: '{}',
			})
			expect(created.status).toBe(201)
			expect(await created.json()).toMatchObject({ authorization_state: 'authorizationStateWaitPhoneNumber' })
			const cache = join(cwd, 'data', 'cache')
			const files = readdirSync(cache)
			expect(files).toHaveLength(1)
			expect(files[0]).toMatch(/^libtdjson-[0-9a-f]{16}\.so$/)
			cached = join(cache, files[0]!)
			expect(statSync(cached).size).toBe(statSync(await tdjsonPath(undefined, null)).size)
			inode = statSync(cached).ino
		} finally {
			await server.stop()
		}
		// A second start loads the copy it made: same file, and the userbot is restored from TDLib's database.
		server = await startServerProcess(sourceHidden([binary]), { cwd, env })
		try {
			const token = await fetch(`${server.url}/accounts/token/`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ email: 'smoke@example.com', password: 'Lamp-Orbit-4821' }),
			})
			const { access } = (await token.json()) as { access: string }
			const list = await fetch(`${server.url}/api/userbots/`, {
				headers: { authorization: `Bearer ${access}` },
			})
			expect(await list.json()).toMatchObject([{ authorization_state: 'authorizationStateWaitPhoneNumber' }])
			expect(statSync(cached).ino).toBe(inode)
			expect(existsSync(`${cached}.partial`)).toBe(false)
		} finally {
			await server.stop()
		}
	})
})
