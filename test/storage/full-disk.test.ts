import { afterAll, beforeAll, describe, expect, it, setSystemTime } from 'bun:test'
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getTestInstance, type TestInstance } from '../helpers'
import { createUserbot, type Member, PASSWORD, signUp } from '../plugins/userbots/support'

/**
 * The whole server on a disk that fills up: the data folder is a real 6 MiB tmpfs, filled by
 * uploads and then by the database itself. Nothing answers 500, nothing half-written stays, a
 * delete gives the space back, and /health says what it sees. Mounting needs root (CAP_SYS_ADMIN);
 * where it cannot mount, this file says so and runs nothing. The same behaviours are checked without
 * a mount, part by part, in test/http/storage-errors.test.ts, test/db/health.test.ts,
 * test/plugins/userbots/lifecycle/uploads.test.ts and test/plugins/userbots/quotas.test.ts.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'ubg-full-disk-'))
const mounted =
	process.platform === 'linux' &&
	Bun.spawnSync(['mount', '-t', 'tmpfs', '-o', 'size=6m,mode=0700', 'tmpfs', dataDir], { stderr: 'pipe' })
		.exitCode === 0
if (!mounted) {
	rmSync(dataDir, { recursive: true, force: true })
	process.stderr.write('full-disk.test.ts: cannot mount a tmpfs here (needs root); these tests do not run\n')
}

const CHUNK = 256 * 1024

describe.skipIf(!mounted)('a full disk', () => {
	let server: TestInstance
	let owner: Member
	let cookie = ''
	const ids: number[] = []
	beforeAll(async () => {
		server = await getTestInstance(
			{ UPLOAD_MAX_BYTES: String(CHUNK), RESET_RATE_LIMIT_IP: '1000000', RESET_RATE_LIMIT_EMAIL: '1000000' },
			{ dataDir },
		)
		owner = await signUp(server.url)
		for (let i = 0; i < 3; i++) ids.push(await createUserbot(owner))
		const login = await post('/accounts/login/', { email: owner.email, password: PASSWORD })
		cookie = login.headers
			.getSetCookie()
			.map((c) => c.split(';')[0])
			.join('; ')
	})
	afterAll(async () => {
		setSystemTime()
		await server?.halt()
		// Lazily: the supervisor child may still be letting go of its folders.
		Bun.spawnSync(['umount', '--lazy', dataDir])
		rmSync(dataDir, { recursive: true, force: true })
	})

	const upload = (id: number) => {
		const fd = new FormData()
		fd.append('file', new File([new Uint8Array(CHUNK).fill(7)], 'media.bin'))
		return fetch(`${server.url}/api/userbots/${id}/files/`, {
			method: 'POST',
			headers: { authorization: `Bearer ${owner.access}` },
			body: fd,
		})
	}
	const post = (path: string, body: unknown) =>
		fetch(server.url + path, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		})
	const uploadsOf = (id: number) => {
		const dir = join(dataDir, 'tdlib', String(id), 'uploads')
		return readdirSync(dir).map((name) => ({ name, size: statSync(join(dir, name)).size }))
	}
	const STORAGE_FULL = {
		detail: 'The server has run out of storage space; try again later.',
		code: 'storage_full',
	}

	it('answers an upload that does not fit 507, and keeps no partial file', async () => {
		let status = 0
		for (let i = 0; i < 100 && status !== 507; i++) {
			const res = await upload(ids[i % ids.length] ?? 0)
			status = res.status
			if (status === 507) expect(await res.json()).toEqual(STORAGE_FULL)
			else expect(status).toBe(201)
		}
		expect(status).toBe(507)
		for (const id of ids) {
			for (const f of uploadsOf(id)) {
				expect(f.name.startsWith('.')).toBe(false)
				expect(f.size).toBe(CHUNK)
			}
		}
	})

	it('answers writes of the database 507 once it cannot grow, and /health says full', async () => {
		// Fill what is left with the database's own writes (a rate-limit row per made-up address).
		let status = 0
		for (let i = 0; i < 5000 && status !== 507; i++) {
			status = (await post('/accounts/request-reset/', { email: `filler${i}@example.com` })).status
			if (status !== 507) expect(status).toBe(200)
		}
		expect(status).toBe(507)
		const register = await post('/accounts/register/', {
			email: 'late@example.com',
			password: 'Harbour-lights-42',
			first_name: 'L',
			last_name: 'T',
		})
		expect(register.status).toBe(507)
		expect(await register.json()).toEqual(STORAGE_FULL)
		const token = await post('/accounts/token/', { email: owner.email, password: PASSWORD })
		expect(token.status).toBe(507)
		// A session whose access token expired must rotate its pair: a write.
		setSystemTime(new Date(Date.now() + 2 * server.config.accessTokenLifetime * 1000))
		const me = await fetch(`${server.url}/accounts/me/`, { headers: { cookie } })
		setSystemTime()
		expect(me.status).toBe(507)
		expect(await me.json()).toEqual(STORAGE_FULL)
		expect((await owner.call('POST', '/api/userbots/', {})).status).toBe(507)
		const health = await fetch(`${server.url}/health`)
		expect(health.status).toBe(503)
		expect(await health.json()).toMatchObject({ status: 'degraded', database: 'full' })
	})

	it('lets DELETE give the space back, after which everything works again', async () => {
		const id = ids[0] ?? 0
		expect((await owner.call('DELETE', `/api/userbots/${id}/`)).status).toBe(204)
		expect(readdirSync(join(dataDir, 'tdlib'))).not.toContain(String(id))
		expect((await fetch(`${server.url}/health`)).status).toBe(200)
		const register = await post('/accounts/register/', {
			email: 'after@example.com',
			password: 'Harbour-lights-42',
			first_name: 'A',
			last_name: 'F',
		})
		expect(register.status).toBe(201)
	})
})
