import { afterAll, describe, expect, it } from 'bun:test'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type ServerProcess, startServerProcess } from '../build/server-process'
import { connectWs } from '../helpers-ws'

/**
 * Issue 28, backups: `backup PATH` beside a running server (`bun src/entry/main.ts`, the emulator standing
 * for Telegram), `restore PATH` into a new folder, and a server started there brings the same
 * userbots back Ready, asked through REST and WebSocket as a client would.
 */
const MAIN = join(import.meta.dir, '..', '..', 'src', 'entry', 'main.ts')
const PASSWORD = 'Correct-Horse-42'
const EMAIL = 'backup-owner@example.com'
const root = mkdtempSync(join(tmpdir(), 'ubg-backup-'))
const first = join(root, 'data')
const restored = join(root, 'restored')
const servers: ServerProcess[] = []

afterAll(async () => {
	for (const s of servers) await s.stop()
	rmSync(root, { recursive: true, force: true })
})

const baseEnv = (dataDir: string): Record<string, string> => ({
	PATH: process.env.PATH ?? '',
	HOME: tmpdir(),
	DATA_DIR: dataDir,
	PORT: '0',
	TDLIB_BACKEND: 'emulator',
	LOG_LEVEL: 'warn',
})

const start = async (dataDir: string) => {
	const s = await startServerProcess([process.execPath, MAIN], {
		cwd: root,
		env: { ...baseEnv(dataDir), LOG_LEVEL: 'info' },
	})
	servers.push(s)
	return s
}

/** `bun src/entry/main.ts <args>` (what `npm start -- <args>` runs): its exit code and output. */
async function cli(args: string[], env: Record<string, string>) {
	const proc = Bun.spawn([process.execPath, MAIN, ...args], {
		cwd: root,
		env,
		stdout: 'pipe',
		stderr: 'pipe',
	})
	const [stdout, stderr, code] = await Promise.all([
		new Response(proc.stdout).text(),
		new Response(proc.stderr).text(),
		proc.exited,
	])
	return { code, stdout, stderr }
}

const call = async (url: string, method: string, path: string, body?: unknown, bearer?: string) => {
	const res = await fetch(`${url}${path}`, {
		method,
		headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
		body: body === undefined ? undefined : JSON.stringify(body),
	})
	return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, unknown> }
}

const token = async (url: string) => {
	const res = await call(url, 'POST', '/accounts/token/', { email: EMAIL, password: PASSWORD })
	expect(res.status).toBe(200)
	return res.body.access as string
}

const ACCOUNTS = [
	{ phone: '9996611111', userId: 1001 },
	{ phone: '9996621234', userId: 1002 },
]

describe('backup and restore', () => {
	const ids: number[] = []

	it('backs up beside a running server; a restore on a new folder brings the userbots back Ready', async () => {
		const server = await start(first)
		expect(
			(
				await call(server.url, 'POST', '/accounts/register/', {
					email: EMAIL,
					password: PASSWORD,
					first_name: 'Back',
					last_name: 'Up',
				})
			).status,
		).toBe(201)
		const access = await token(server.url)
		for (const account of ACCOUNTS) {
			const made = await call(server.url, 'POST', '/api/userbots/', { name: `bot ${account.phone}` }, access)
			expect(made.status).toBe(201)
			const id = made.body.id as number
			await call(server.url, 'POST', `/api/userbots/${id}/phone/`, { phone_number: account.phone }, access)
			const code = account.phone.charAt(5).repeat(5)
			const done = await call(server.url, 'POST', `/api/userbots/${id}/code/`, { code }, access)
			expect(done.body.authorization_state).toBe('authorizationStateReady')
			ids.push(id)
		}
		// Stands for TDLib's SQLite cache, which a running client may be writing.
		writeFileSync(join(first, 'tdlib', String(ids[0]), 'db', 'db.sqlite'), 'cache')

		const path = join(root, 'backup-live')
		const made = await cli(['backup', path], baseEnv(first))
		expect(made.stderr).toBe('')
		expect(made.code).toBe(0)
		expect(made.stdout).toContain(`backup written: ${path}`)
		expect(made.stdout).toContain('clients running')
		const manifest = JSON.parse(readFileSync(join(path, 'manifest.json'), 'utf8'))
		expect(manifest).toMatchObject({ format: 'userbot-gateway-backup', userbots: ids, clients_running: true })
		// Running clients: the authorization is there, the cache a copy could tear is not.
		expect(existsSync(join(path, 'tdlib', String(ids[0]), 'db', 'emulator-auth.json'))).toBe(true)
		expect(existsSync(join(path, 'tdlib', String(ids[0]), 'db', 'db.sqlite'))).toBe(false)
		expect(readFileSync(join(path, 'secrets.json'), 'utf8')).toBe(
			readFileSync(join(first, 'secrets.json'), 'utf8'),
		)

		const back = await cli(['restore', path], baseEnv(restored))
		expect(back.stderr).toBe('')
		expect(back.code).toBe(0)
		expect(back.stdout).toContain(`restored: ${path} into ${restored}`)

		const again = await start(restored)
		const access2 = await token(again.url)
		const list = await call(again.url, 'GET', '/api/userbots/', undefined, access2)
		expect(list.status).toBe(200)
		const rows = list.body as unknown as Array<{ id: number; authorization_state: string }>
		expect(rows.map((r) => r.id).sort()).toEqual([...ids].sort())
		// The stored state says Ready either way: the account itself answering proves the client is.
		const ws = await connectWs(again.url, { bearer: access2 })
		try {
			for (const [i, id] of ids.entries()) {
				const deadline = Date.now() + 20_000
				for (;;) {
					const reply = await ws.command({ action: 'get_me', userbot_id: id })
					if (reply.payload.type === 'get_me') {
						expect((reply.payload.result as { id: number }).id).toBe(ACCOUNTS[i]!.userId)
						break
					}
					// Only while its client is still starting from the restored folder; a folder that lost its
					// authorization stays so, and the deadline fails the test.
					expect(reply.payload.error).toBe('userbot is not authorized')
					if (Date.now() > deadline) throw new Error(`userbot ${id} never became Ready`)
					await Bun.sleep(50)
				}
			}
		} finally {
			ws.close()
		}
	}, 90_000)

	it('refuses to restore into a folder that is not empty, and to back up into one', async () => {
		const path = join(root, 'backup-live')
		const into = await cli(['restore', path], baseEnv(restored))
		expect(into.code).toBe(2)
		expect(into.stderr).toBe(
			`restore: DATA_DIR ${restored} is not empty: restore only into a new or empty folder\n`,
		)
		const over = await cli(['backup', path], baseEnv(first))
		expect(over.code).toBe(2)
		expect(over.stderr).toBe(`backup: ${path} is not empty: give a new or empty folder\n`)
		const notBackup = join(root, 'not-a-backup')
		mkdirSync(notBackup)
		const bad = await cli(['restore', notBackup], baseEnv(join(root, 'elsewhere')))
		expect(bad.code).toBe(2)
		expect(bad.stderr).toBe(
			`restore: ${notBackup} is not a backup of this service (no valid manifest.json)\n`,
		)
		expect(existsSync(join(root, 'elsewhere'))).toBe(false)
	})

	it('refuses a libSQL server URL, naming its origin and never its credentials', async () => {
		for (const command of ['backup', 'restore']) {
			const out = await cli([command, join(root, `remote-${command}`)], {
				...baseEnv(join(root, `remote-${command}-data`)),
				DATABASE_URL: 'libsql://db.example.com:8080?authToken=sekret',
				DATABASE_AUTH_TOKEN: 'sekret',
			})
			expect(out.code).toBe(2)
			expect(out.stderr).toStartWith(
				`${command}: the database is a libSQL server (libsql://db.example.com:8080)`,
			)
			expect(out.stderr).not.toContain('sekret')
		}
	})

	it('copies whole folders once no client runs', async () => {
		await servers[0]!.stop()
		const path = join(root, 'backup-stopped')
		const made = await cli(['backup', path], baseEnv(first))
		expect(made.code).toBe(0)
		expect(made.stdout).toContain('clients stopped')
		expect(readFileSync(join(path, 'tdlib', String(ids[0]), 'db', 'db.sqlite'), 'utf8')).toBe('cache')
		expect(JSON.parse(readFileSync(join(path, 'manifest.json'), 'utf8')).clients_running).toBe(false)
	})

	it("refuses a secrets.json that does not open the userbots' keys, and writes nothing", async () => {
		const file = join(first, 'secrets.json')
		const kept = readFileSync(file, 'utf8')
		try {
			writeFileSync(
				file,
				JSON.stringify({ ...JSON.parse(kept), dataKey: Buffer.alloc(32, 7).toString('base64url') }),
			)
			const path = join(root, 'backup-wrong-secrets')
			const out = await cli(['backup', path], baseEnv(first))
			expect(out.code).toBe(2)
			expect(out.stderr).toBe(
				`backup: ${file} does not open the key of userbot ${ids[0]}: it is not this database's\n`,
			)
			expect(existsSync(path)).toBe(false)
			expect(readdirSync(root).filter((n) => n.includes('.partial-'))).toEqual([])
		} finally {
			writeFileSync(file, kept)
		}
	})
})
