import { afterAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@libsql/client'
import { DENO_ENTRY, DENO_FLAGS, denoCommand } from '../../src/platform/deno/command'
import { runToEnd, startServerProcess } from '../build/server-process'
import { restSmoke } from '../build/smoke'

/**
 * The REST families on Deno 2 for real: `src/platform/deno/main.ts` under the Deno of the `deno` npm package,
 * with the flags `npm run start:deno` uses, against an embedded libSQL file.
 */
const root = join(import.meta.dir, '..', '..')
const dirs: string[] = []
afterAll(() => {
	for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})
function emptyFolder(): string {
	const d = mkdtempSync(join(tmpdir(), 'ubg-deno-'))
	dirs.push(d)
	return d
}
// Deno's cache of transpiled modules is kept between runs, beside the other test files.
const env = (cwd: string): Record<string, string> => ({
	PATH: process.env.PATH ?? '',
	HOME: cwd,
	DENO_DIR: join(root, '.tmp', 'deno-dir'),
	NO_COLOR: '1',
})

describe('npm run start:deno', () => {
	it('runs src/platform/deno/main.ts with the flags the tests use', () => {
		const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
			scripts: Record<string, string>
		}
		expect(pkg.scripts['start:deno']).toBe(`deno ${DENO_FLAGS.join(' ')} src/platform/deno/main.ts`)
		expect(denoCommand().slice(-1)).toEqual([DENO_ENTRY])
	})
})

describe('the REST families on Deno', () => {
	it('serve accounts from register to logout and /health, with no /ws and no userbots', async () => {
		const cwd = emptyFolder()
		const server = await startServerProcess(denoCommand(), {
			cwd,
			env: { ...env(cwd), PORT: '0' },
			timeoutMs: 60_000,
		})
		let email: string
		try {
			expect(server.output()).toContain('"runtime":"deno"')
			;({ email } = await restSmoke(server.url))
			expect((await fetch(`${server.url}/ws`)).status).toBe(404)
			expect((await fetch(`${server.url}/api/userbots/`)).status).toBe(404)
			expect(await (await fetch(`${server.url}/health`)).json()).toEqual({
				status: 'ok',
				database: 'ok',
				supervisor: 'not configured',
			})
		} finally {
			expect(await server.stop()).toBe(0)
		}
		expect(server.output()).not.toMatch(/"level":"error"/)

		const db = createClient({ url: `file:${join(cwd, 'data', 'app.db')}` })
		try {
			// Rate limits count per client address on Deno too (not all clients as one "unknown").
			const keys = (await db.execute('SELECT key FROM rate_limit')).rows.map((r) => String(r.key))
			expect(keys).toContain('register-ip:127.0.0.1')
			expect(keys).toContain(`login:${email}:127.0.0.1`)
			expect(keys.filter((k) => k.includes('unknown'))).toEqual([])
			// The password hash Deno wrote is one Bun's argon2id accepts: an account moves between runtimes.
			const [user] = (await db.execute('SELECT password_hash FROM user_profile')).rows
			expect(await Bun.password.verify('Lamp-Orbit-4821', String(user?.password_hash))).toBe(true)
		} finally {
			db.close()
		}
	})

	it('refuses by name a plugin that needs Bun, in one line', async () => {
		const cwd = emptyFolder()
		const run = await runToEnd(denoCommand(), {
			cwd,
			env: { ...env(cwd), PORT: '0', PLUGINS: 'accounts,userbots' },
			timeoutMs: 60_000,
		})
		expect(run.stderr).toBe(
			'configuration error: PLUGINS: userbots need Bun (the TDLib supervisor and the WebSocket channel); on Deno: accounts, api-accounts\n',
		)
		expect(run.code).toBe(2)
	})

	it('reads .env from its working folder', async () => {
		const cwd = emptyFolder()
		await Bun.write(join(cwd, '.env'), 'PLUGINS=commands-messages\n')
		const run = await runToEnd(denoCommand(), { cwd, env: { ...env(cwd), PORT: '0' }, timeoutMs: 60_000 })
		expect(run.stderr).toStartWith('configuration error: PLUGINS: commands-messages need Bun')
		expect(run.code).toBe(2)
	})

	it('speaks Hrana over HTTP to a libSQL server URL, with its token', async () => {
		// No libSQL server (sqld) can be installed here: a stand-in on 127.0.0.1 records what the
		// client sends and refuses it, and the server stops with the driver's one line.
		const seen: string[] = []
		const standIn = Bun.serve({
			port: 0,
			hostname: '127.0.0.1',
			fetch(request) {
				seen.push(
					`${request.method} ${new URL(request.url).pathname} ${request.headers.get('authorization')}`,
				)
				return Response.json({ message: 'stand-in: no database here' }, { status: 500 })
			},
		})
		try {
			const cwd = emptyFolder()
			const origin = `http://127.0.0.1:${standIn.port}`
			const run = await runToEnd(denoCommand(), {
				cwd,
				env: { ...env(cwd), PORT: '0', DATABASE_URL: origin, DATABASE_AUTH_TOKEN: 'token-of-the-server' },
				timeoutMs: 60_000,
			})
			expect(seen[0]).toBe('POST /v2/pipeline Bearer token-of-the-server')
			// One line naming the server by its origin, never its token.
			expect(run.stderr).toMatch(new RegExp(`^startup error: database ${origin}: [^\\n]+\\n$`))
			expect(run.stderr).not.toContain('token-of-the-server')
			expect(run.code).toBe(2)
		} finally {
			standIn.stop(true)
		}
	})
})
