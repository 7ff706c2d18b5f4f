import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@libsql/client'
import { buildEdge, EDGE_IMPORTS_ALLOWED } from '../../src/build/edge'
import { denoExecutable } from '../../src/platform/deno/command'
import { ConfigError, loadConfig } from '../../src/server/config'
import { runToEnd, startServerProcess } from '../build/server-process'
import { restSmoke } from '../build/smoke'
import { type SqldServer, startSqld } from '../helpers-sqld'

/**
 * The edge entry (src/platform/edge/main.ts, bundled by `npm run build:edge`) under the Deno of the `deno` npm
 * package with `--allow-net --allow-env` and nothing else, against a real libSQL server (sqld) that
 * a Bun server shares: accounts made at the edge log in on Bun, and the other way round.
 */
const root = join(import.meta.dir, '..', '..')
const dir = mkdtempSync(join(tmpdir(), 'ubg-edge-'))
const bundle = join(dir, 'edge.js')
const SECRETS = { JWT_SECRET: 'j'.repeat(40), SESSION_SECRET: 's'.repeat(40) }
let imports: string[] = []
const cleanup: Array<() => Promise<unknown>> = []

beforeAll(async () => {
	;({ imports } = await buildEdge(bundle))
}, 120_000)
afterAll(async () => {
	for (const stop of cleanup.reverse()) await stop().catch(() => undefined)
	rmSync(dir, { recursive: true, force: true })
})

const denoEnv = (databaseUrl: string): Record<string, string> => ({
	PATH: process.env.PATH ?? '',
	HOME: dir,
	DENO_DIR: join(root, '.tmp', 'deno-dir'),
	NO_COLOR: '1',
	DATABASE_URL: databaseUrl,
	HOST: '127.0.0.1',
	PORT: '0',
	...SECRETS,
})
const EDGE_FLAGS = ['run', '--allow-net', '--allow-env']

async function sqld(name: string): Promise<SqldServer> {
	const server = await startSqld(join(dir, name))
	cleanup.push(() => server.stop())
	return server
}

const json = (body: unknown) => ({
	method: 'POST',
	headers: { 'content-type': 'application/json' },
	body: JSON.stringify(body),
})

describe('the edge bundle', () => {
	it('imports only node: modules edge hosts have: no file system, no native module', () => {
		expect(imports.filter((i) => !EDGE_IMPORTS_ALLOWED.test(i))).toEqual([])
		expect(imports).not.toContain('node:fs')
		const code = readFileSync(bundle, 'utf8')
		// libsql's native loader, nodemailer (SMTP) and the file-backed secrets are not in it.
		const has = (text: string) => ({ [text]: code.includes(text) })
		expect(has('node_modules/libsql/index.js')).toEqual({ 'node_modules/libsql/index.js': false })
		expect(has('// node_modules/nodemailer/')).toEqual({ '// node_modules/nodemailer/': false })
		// libSQL's WebSocket is the runtime's own (the `deno` export condition), not Node's `ws`.
		expect(has('// node_modules/ws/')).toEqual({ '// node_modules/ws/': false })
		expect(has('no file system on the edge')).toEqual({ 'no file system on the edge': true })
	})
})

describe('its configuration', () => {
	it('takes the secrets from the environment only, touching no folder', () => {
		const dataDir = join(dir, 'never-made')
		const env = { DATA_DIR: dataDir, DATABASE_URL: 'http://127.0.0.1:9', ...SECRETS }
		expect(loadConfig(env, { secrets: 'env' }).secrets).toEqual({
			jwtSecret: SECRETS.JWT_SECRET,
			sessionSecret: SECRETS.SESSION_SECRET,
			dataKey: '',
		})
		expect(() => loadConfig({ ...env, JWT_SECRET: undefined }, { secrets: 'env' })).toThrow(
			new ConfigError('JWT_SECRET: must be set here (no DATA_DIR to keep it in)'),
		)
		expect(existsSync(dataDir)).toBe(false)
	})
})

describe('the REST families at the edge, under Deno with net and env only', () => {
	it('register, log in, me/, refresh, logout; accounts move between the edge and the Bun server', async () => {
		const db = await sqld('shared')
		// The Bun server migrates the shared database; the edge never does.
		const bun = await startServerProcess(
			[process.execPath, '--no-env-file', join(root, 'src', 'entry', 'main.ts')],
			{
				cwd: dir,
				env: {
					PATH: process.env.PATH ?? '',
					HOME: dir,
					DATA_DIR: join(dir, 'bun-data'),
					DATABASE_URL: db.url,
					PLUGINS: 'accounts',
					PORT: '0',
					HOST: '127.0.0.1',
					...SECRETS,
				},
				timeoutMs: 60_000,
			},
		)
		cleanup.push(() => bun.stop())
		// The edge speaks Hrana over WebSocket, the Bun server over HTTP: one database.
		const edge = await startServerProcess([denoExecutable(), ...EDGE_FLAGS, bundle], {
			cwd: dir,
			env: denoEnv(db.url.replace(/^http:/, 'ws:')),
			timeoutMs: 60_000,
		})
		cleanup.push(() => edge.stop())
		expect(edge.output()).toContain('"entry":"edge"')

		const { email } = await restSmoke(edge.url, 'edge@example.com')
		// Made at the edge (WebAssembly argon2id), it logs in on Bun (Bun's native argon2id).
		const onBun = await fetch(`${bun.url}/accounts/login/`, json({ email, password: 'Lamp-Orbit-4821' }))
		expect(onBun.status).toBe(200)
		// And one made on Bun logs in at the edge.
		const made = await fetch(
			`${bun.url}/accounts/register/`,
			json({ email: 'bun@example.com', password: 'Lamp-Orbit-4821', first_name: 'B', last_name: 'S' }),
		)
		expect(made.status).toBe(201)
		const atEdge = await fetch(
			`${edge.url}/accounts/token/`,
			json({ email: 'bun@example.com', password: 'Lamp-Orbit-4821' }),
		)
		expect(atEdge.status).toBe(200)

		const client = createClient({ url: db.url })
		try {
			const rows = (await client.execute('SELECT key FROM rate_limit')).rows.map((r) => String(r.key))
			// Rate limits count per client address at the edge too.
			expect(rows).toContain(`login:${email}:127.0.0.1`)
			const [hash] = (
				await client.execute({ sql: 'SELECT password_hash FROM user_profile WHERE email = ?', args: [email] })
			).rows
			expect(await Bun.password.verify('Lamp-Orbit-4821', String(hash?.password_hash))).toBe(true)
		} finally {
			client.close()
		}
		expect(await edge.stop()).toBe(0)
		expect(edge.output()).not.toMatch(/"level":"error"|PermissionDenied|Requires (read|write|ffi|sys)/)
	}, 180_000)

	it('refuses a database whose schema is behind, and a file URL, with one line each', async () => {
		const fresh = await sqld('fresh')
		const behind = await runToEnd([denoExecutable(), ...EDGE_FLAGS, bundle], {
			cwd: dir,
			env: denoEnv(fresh.url),
			timeoutMs: 60_000,
		})
		expect(behind.code).toBe(2)
		expect(behind.stderr.trim()).toBe(
			'startup error: database: its schema is behind this code: run migrate (or start the Bun server) on it first',
		)
		const file = await runToEnd([denoExecutable(), ...EDGE_FLAGS, bundle], {
			cwd: dir,
			env: denoEnv(`file:${join(dir, 'app.db')}`),
			timeoutMs: 60_000,
		})
		expect(file.code).toBe(2)
		expect(file.stderr.trim()).toBe(
			'configuration error: DATABASE_URL: must name a libSQL server (libsql, http(s) or ws(s) URL) here',
		)
	}, 120_000)
})
