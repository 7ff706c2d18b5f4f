import { afterEach, describe, expect, it } from 'bun:test'
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import * as v from 'valibot'
import { openDatabase } from '../db/client'
import { startServer } from '../src/platform/bun/serve'
import { defineCommand, defineCommandGroup } from '../src/server/commands/define'
import { loadConfig } from '../src/server/config'
import { pluginsWith } from './gateway/fixtures'

/**
 * Every failure at start is one line on stderr and exit code 2: never a stack, never a query's
 * parameters. `bun src/entry/main.ts` is run for real where the failure can be made on disk; the
 * duplicate command name, which needs a plugin list of the test's own, goes through `startServer`,
 * the function main.ts and demo.ts both start with.
 */
const dirs: string[] = []
afterEach(() => {
	for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})
const tempDir = () => {
	const d = mkdtempSync(join(tmpdir(), 'ubg-start-'))
	dirs.push(d)
	return d
}

const MAIN = join(import.meta.dir, '..', 'src', 'entry', 'main.ts')

/** Runs main.ts (as `prefix` says, e.g. as another user) until it exits; its exit code and stderr. */
/**
 * Lets every user pass through the folders above `paths` (search only, o+x) until the returned
 * function puts them back: a clone under `mktemp -d` (mode 700) is otherwise out of nobody's reach.
 */
function searchableByAll(paths: string[]): () => void {
	const changed = new Map<string, number>()
	for (const path of paths)
		for (let d = path; d !== dirname(d); d = dirname(d)) {
			const mode = statSync(d).mode & 0o7777
			if (!changed.has(d) && (mode & 0o001) === 0) {
				changed.set(d, mode)
				chmodSync(d, mode | 0o001)
			}
		}
	return () => {
		for (const [d, mode] of changed) chmodSync(d, mode)
	}
}

async function runMain(dataDir: string, prefix: string[] = []) {
	const proc = Bun.spawn([...prefix, process.execPath, MAIN], {
		env: {
			PATH: process.env.PATH ?? '',
			HOME: tmpdir(),
			DATA_DIR: dataDir,
			PORT: '0',
			TDLIB_BACKEND: 'emulator',
		},
		stdout: 'pipe',
		stderr: 'pipe',
	})
	const timer = setTimeout(() => proc.kill('SIGKILL'), 20_000)
	const code = await proc.exited
	clearTimeout(timer)
	return { code, stderr: await new Response(proc.stderr).text() }
}

/** Exactly one line, `startup error: ...`, and nothing that looks like a stack. */
function expectOneLine(stderr: string, pattern: RegExp) {
	const lines = stderr.split('\n').filter((l) => l !== '')
	expect(lines).toHaveLength(1)
	expect(lines[0]).toMatch(pattern)
	expect(stderr).not.toMatch(/\n\s+at |params/)
}

describe('npm start that cannot start', () => {
	it('says in one line that app.db cannot be opened', async () => {
		const dir = tempDir()
		mkdirSync(join(dir, 'app.db'))
		const { code, stderr } = await runMain(dir)
		expect(code).toBe(2)
		expectOneLine(stderr, /^startup error: database .*app\.db: cannot open the database file/)
	})

	it('says in one line that app.db is read-only, as the user it runs as', async () => {
		const dir = tempDir()
		// A database and secrets made on an earlier start, then made read-only.
		loadConfig({ DATA_DIR: dir })
		;(await openDatabase(`file:${join(dir, 'app.db')}`)).close()
		for (const name of readdirSync(dir)) chmodSync(join(dir, name), 0o444)
		// chmod alone does not stop root: as root, main.ts runs as nobody.
		const root = process.getuid?.() === 0
		chmodSync(dir, root ? 0o755 : 0o555)
		const prefix = root ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'] : []
		// Nobody must reach the code it runs and the data folder, wherever the clone lies.
		const restore = root ? searchableByAll([MAIN, process.execPath, dir]) : () => {}
		const { code, stderr } = await runMain(dir, prefix).finally(restore)
		chmodSync(dir, 0o755)
		expect(code).toBe(2)
		expectOneLine(
			stderr,
			/^startup error: database .*app\.db: SQLITE_READONLY: attempt to write a readonly database$/,
		)
	})

	it('says in one line that the database refused a write, without the query or its parameters', async () => {
		const dir = tempDir()
		const handle = await openDatabase(`file:${join(dir, 'app.db')}`)
		// The work statuses are seeded at every start, with bound parameters: refuse that insert.
		await handle.client.execute(
			"create trigger refuse_seed before insert on status_on_work begin select raise(abort, 'seeding refused'); end",
		)
		handle.close()
		const { code, stderr } = await runMain(dir)
		expect(code).toBe(2)
		expectOneLine(stderr, /^startup error: database .*app\.db: SQLITE_CONSTRAINT.*seeding refused$/)
		expect(stderr).not.toMatch(/on_leave|On Leave|insert into/i)
	})

	it('says in one line that the data folder is not one', async () => {
		const dir = tempDir()
		const file = join(dir, 'not-a-folder')
		writeFileSync(file, 'x')
		const { code, stderr } = await runMain(file)
		expect(code).toBe(2)
		expectOneLine(stderr, /^configuration error: DATA_DIR: cannot keep the generated secrets in /)
	})
})

describe('startServer', () => {
	it('turns two commands of one name into one line', async () => {
		const impostor = defineCommandGroup({
			id: 'impostor-group',
			commands: [
				defineCommand({
					name: 'send_message',
					policy: { action: 'write' },
					methods: [],
					input: v.looseObject({}),
					run: async () => null,
				}),
			],
		})
		const dir = tempDir()
		const outcome = await startServer(
			{ DATA_DIR: dir, PORT: '0', TDLIB_BACKEND: 'emulator', LOG_LEVEL: 'silent' },
			{ plugins: pluginsWith(impostor) },
		)
		expect(outcome).toEqual({
			ok: false,
			line: "startup error: command 'send_message' is registered by both command groups 'commands-messages' and 'impostor-group'",
		})
	})

	it('turns a port in use into one line', async () => {
		const taken = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') })
		try {
			const dir = tempDir()
			const outcome = await startServer({
				DATA_DIR: dir,
				PORT: String(taken.port),
				TDLIB_BACKEND: 'emulator',
				LOG_LEVEL: 'silent',
			})
			expect(outcome.ok).toBe(false)
			if (outcome.ok) return
			expect(outcome.line).toStartWith(`startup error: cannot listen on 127.0.0.1:${taken.port}: `)
			expect(outcome.line).not.toContain('\n')
		} finally {
			taken.stop(true)
		}
	})
})
