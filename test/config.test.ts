import { describe, expect, it } from 'bun:test'
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ConfigError, loadConfig } from '../src/server/config'

const tempDir = () => mkdtempSync(join(tmpdir(), 'ubg-config-'))

describe('loadConfig', () => {
	it('applies the contract defaults', () => {
		const dir = tempDir()
		const c = loadConfig({ DATA_DIR: dir })
		expect(c.port).toBe(8000)
		expect(c.host).toBe('127.0.0.1')
		expect(c.databaseUrl).toBe(`file:${join(dir, 'app.db')}`)
		expect(c.accessTokenLifetime).toBe(300)
		expect(c.refreshTokenLifetime).toBe(86_400)
		expect(c.sessionLifetime).toBe(14 * 86_400)
		expect(c.commandTimeoutMs).toBe(30_000)
		expect(c.pluginsExplicit).toBe(false)
		expect(c.telegram.backend).toBe('tdlib')
		rmSync(dir, { recursive: true })
	})

	it.each([
		['PORT', 'eighty', /^PORT: /],
		['PORT', '70000', /^PORT: must be at most 65535/],
		['DATABASE_URL', 'postgres://x', /^DATABASE_URL: /],
		['TDLIB_BACKEND', 'mtproto', /^TDLIB_BACKEND: must be tdlib or emulator/],
		['JWT_SECRET', 'short', /^JWT_SECRET: must be at least 32 characters/],
		[
			'PLUGINS',
			'accounts,Not A Name',
			/^PLUGINS: 'Not A Name' is not a plugin id, a package name or a path$/,
		],
		['TELEGRAM_API_ID', '123', /^TELEGRAM_API_HASH: must be set together with TELEGRAM_API_ID/],
		['ROLE', 'leader', /^ROLE: must be all, gateway or shard$/],
		['ROLE', 'gateway', /^ROLE: gateway needs BUS_URL \(a NATS server joining gateways and shards\)$/],
		['ROLE', 'shard', /^ROLE: shard needs BUS_URL/],
		[
			'BUS_URL',
			'http://127.0.0.1:4222',
			/^BUS_URL: must be nats:\/\/host:port \(or tls:\/\/\), comma-separated$/,
		],
		['SHARD_ID', 'a b', /^SHARD_ID: must be 1 to 64 letters, digits, - or _$/],
		['SUPERVISORS', '0', /^SUPERVISORS: /],
		['BUS_HEARTBEAT', '10', /^BUS_HEARTBEAT: /],
	])('rejects %s=%s with one line naming it', (name, value, pattern) => {
		const dir = tempDir()
		let error: unknown
		try {
			loadConfig({ DATA_DIR: dir, [name]: value })
		} catch (err) {
			error = err
		}
		expect(error).toBeInstanceOf(ConfigError)
		const message = (error as Error).message
		expect(message).toMatch(pattern)
		expect(message).not.toContain('\n')
		rmSync(dir, { recursive: true })
	})

	it('runs one process without a bus by default, and reads the bus settings', () => {
		const dir = tempDir()
		const one = loadConfig({ DATA_DIR: dir })
		expect([one.role, one.supervisors, one.bus]).toEqual(['all', 1, undefined])
		const shard = loadConfig({
			DATA_DIR: dir,
			ROLE: 'shard',
			SUPERVISORS: '4',
			BUS_URL: 'nats://10.0.0.1:4222,tls://nats.example:4222',
			SHARD_ID: 'east-1',
		})
		expect([shard.role, shard.supervisors]).toEqual(['shard', 4])
		expect(shard.bus).toEqual({
			servers: ['nats://10.0.0.1:4222', 'tls://nats.example:4222'],
			shardId: 'east-1',
			heartbeatMs: 1000,
			// A tls:// server: TLS is required, for every server.
			tls: {},
		})
		rmSync(dir, { recursive: true })
	})

	it('takes the bus credentials out of BUS_URL, and never puts them in an error line', () => {
		const dir = tempDir()
		const withPassword = loadConfig({
			DATA_DIR: dir,
			BUS_URL: 'nats://gw:p%40ss@10.0.0.1:4222,nats://10.0.0.2:4222',
		})
		expect(withPassword.bus?.servers).toEqual(['nats://10.0.0.1:4222', 'nats://10.0.0.2:4222'])
		expect(withPassword.bus?.auth).toEqual({ kind: 'password', user: 'gw', pass: 'p@ss' })
		const withToken = loadConfig({ DATA_DIR: dir, BUS_URL: 'nats://s3cr3t-token@10.0.0.1:4222' })
		expect(withToken.bus?.auth).toEqual({ kind: 'token', token: 's3cr3t-token' })
		expect(withToken.bus?.servers).toEqual(['nats://10.0.0.1:4222'])
		const seed = join(dir, 'user.nk')
		writeFileSync(seed, 'SUAxxx')
		expect(loadConfig({ DATA_DIR: dir, BUS_URL: 'nats://h:1', BUS_NKEY: seed }).bus?.auth).toEqual({
			kind: 'nkey',
			seedFile: seed,
		})
		expect(loadConfig({ DATA_DIR: dir, BUS_URL: 'nats://h:1', BUS_CREDS: seed }).bus?.auth).toEqual({
			kind: 'creds',
			file: seed,
		})
		const tls = loadConfig({ DATA_DIR: dir, BUS_URL: 'nats://h:1', BUS_TLS_CA: seed })
		expect(tls.bus?.tls).toEqual({ caFile: seed })
		const refusals: Array<[Record<string, string>, RegExp]> = [
			[
				{ BUS_URL: 'nats://a:one-secret@h:1,nats://a:other-secret@h:2' },
				/^BUS_URL: every server must carry the same credentials$/,
			],
			[
				{ BUS_URL: 'nats://a:one-secret@h:1', BUS_CREDS: seed },
				/^BUS_CREDS: use one way of authenticating to the bus, not BUS_URL and BUS_CREDS$/,
			],
			[
				{ BUS_URL: 'nats://h:1', BUS_CREDS: join(dir, 'missing.creds') },
				/^BUS_CREDS: cannot read that file$/,
			],
			[
				{ BUS_URL: 'nats://h:1', BUS_TLS_CERT: seed },
				/^BUS_TLS_KEY: must be set together with BUS_TLS_CERT$/,
			],
		]
		for (const [env, pattern] of refusals) {
			let error: unknown
			try {
				loadConfig({ DATA_DIR: dir, ...env })
			} catch (err) {
				error = err
			}
			expect(error).toBeInstanceOf(ConfigError)
			expect((error as Error).message).toMatch(pattern)
			expect((error as Error).message).not.toContain('secret')
		}
		rmSync(dir, { recursive: true })
	})

	it('never puts a secret value in its error line', () => {
		const dir = tempDir()
		expect(() => loadConfig({ DATA_DIR: dir, SESSION_SECRET: 'tooshort-secret' })).toThrow(
			/^SESSION_SECRET: must be at least 32 characters$/,
		)
		rmSync(dir, { recursive: true })
	})

	it('generates secrets into the data folder once and reuses them', () => {
		const dir = tempDir()
		const first = loadConfig({ DATA_DIR: dir })
		const second = loadConfig({ DATA_DIR: dir })
		expect(first.secrets.jwtSecret.length).toBeGreaterThanOrEqual(43)
		expect(second.secrets).toEqual(first.secrets)
		const file = join(dir, 'secrets.json')
		expect(statSync(file).mode & 0o777).toBe(0o600)
		expect(JSON.parse(readFileSync(file, 'utf8')).jwtSecret).toBe(first.secrets.jwtSecret)
		rmSync(dir, { recursive: true })
	})

	it('prefers secrets from the environment and does not write them to disk', () => {
		const dir = tempDir()
		const secret = 'x'.repeat(40)
		const c = loadConfig({ DATA_DIR: dir, JWT_SECRET: secret })
		expect(c.secrets.jwtSecret).toBe(secret)
		expect(readFileSync(join(dir, 'secrets.json'), 'utf8')).not.toContain(secret)
		rmSync(dir, { recursive: true })
	})
})

describe('npm start with a bad value', () => {
	it('exits non-zero with one line naming the variable', async () => {
		const dir = tempDir()
		const proc = Bun.spawn([process.execPath, 'src/entry/main.ts'], {
			env: { ...process.env, DATA_DIR: dir, PORT: 'not-a-port' },
			stdout: 'pipe',
			stderr: 'pipe',
		})
		const code = await proc.exited
		const stderr = (await new Response(proc.stderr).text()).trim()
		expect(code).not.toBe(0)
		expect(stderr.split('\n')).toHaveLength(1)
		expect(stderr).toContain('PORT: must be a whole number')
		rmSync(dir, { recursive: true })
	})

	it('keeps what it writes to its own user', async () => {
		const dir = tempDir()
		// A data folder someone made readable for all is closed at start.
		chmodSync(dir, 0o755)
		const proc = Bun.spawn([process.execPath, join(import.meta.dir, '..', 'src', 'entry', 'main.ts')], {
			env: { PATH: process.env.PATH ?? '', DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'info' },
			stdout: 'pipe',
			stderr: 'pipe',
		})
		try {
			// Wait for the line that says it listens: by then the database is open and migrated.
			const reader = proc.stderr.getReader()
			let seen = ''
			// The whole line, up to its newline: it is read below.
			while (!/"listening"[^\n]*\n/.test(seen)) {
				const { done, value } = await reader.read()
				if (done) break
				seen += new TextDecoder().decode(value)
			}
			expect(seen).toContain('"listening"')
			// It names the plugins loaded: family B, without MAIN_SERVER_URL, is skipped and not among them.
			const line = seen.split('\n').find((l) => l.includes('"listening"')) ?? '{}'
			const listening = JSON.parse(line) as { plugins?: string[] }
			expect(listening.plugins).toContain('accounts')
			expect(listening.plugins).not.toContain('api-accounts')
			expect(statSync(dir).mode & 0o777).toBe(0o700)
			for (const file of ['app.db', 'secrets.json']) expect(statSync(join(dir, file)).mode & 0o077).toBe(0)
		} finally {
			proc.kill('SIGTERM')
			await proc.exited
			rmSync(dir, { recursive: true, force: true })
		}
	})

	it('reads the variables of a .env file in its working folder', async () => {
		const dir = tempDir()
		await Bun.write(join(dir, '.env'), `DATA_DIR=${dir}\nTDLIB_BACKEND=carrier-pigeon\n`)
		const proc = Bun.spawn([process.execPath, join(import.meta.dir, '..', 'src', 'entry', 'main.ts')], {
			cwd: dir,
			env: { PATH: process.env.PATH ?? '' },
			stdout: 'pipe',
			stderr: 'pipe',
		})
		expect(await proc.exited).toBe(2)
		expect((await new Response(proc.stderr).text()).trim()).toBe(
			'configuration error: TDLIB_BACKEND: must be tdlib or emulator',
		)
		rmSync(dir, { recursive: true })
	})
})
