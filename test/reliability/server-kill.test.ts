import { afterAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@libsql/client'
import { type ServerProcess, startServerProcess } from '../build/server-process'

/**
 * Issue 13, faults: the whole server (`bun src/entry/main.ts`) is killed with SIGKILL in the middle of a
 * burst of registrations (new companies, invites, two people racing for one invite) and userbot
 * creations, then started again on the same data folder. Nothing is half made: no user without a
 * company, no company without its owner, no invite accepted by nobody or by someone elsewhere, no
 * invited user whose invite is still open; every registration answered 201 before the kill is
 * there; the userbots come back; the restarted server registers again.
 */
const MAIN = join(import.meta.dir, '..', '..', 'src', 'entry', 'main.ts')
const PASSWORD = 'Correct-Horse-42'
const dataDir = mkdtempSync(join(tmpdir(), 'ubg-kill-'))
let server: ServerProcess | undefined

afterAll(async () => {
	await server?.stop()
	rmSync(dataDir, { recursive: true, force: true })
})

const start = () =>
	startServerProcess([process.execPath, MAIN], {
		cwd: dataDir,
		env: {
			PATH: process.env.PATH ?? '',
			HOME: tmpdir(),
			DATA_DIR: dataDir,
			PORT: '0',
			TDLIB_BACKEND: 'emulator',
			LOG_LEVEL: 'info',
			REGISTER_RATE_LIMIT_IP: '100000',
		},
	})

const post = (url: string, body: unknown, bearer?: string) =>
	fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
		body: JSON.stringify(body),
	})

interface Attempt {
	email: string
	/** The invite's company, for a registration with an invite. */
	companyId?: number
	status: number | 'no answer'
}

describe('the server killed during a burst of registrations', () => {
	it('leaves no half-made account, keeps every one it confirmed, and starts again', async () => {
		server = await start()
		const url = server.url
		expect((await post(`${url}/accounts/register/`, reg('owner@example.com'))).status).toBe(201)
		const token = await post(`${url}/accounts/token/`, { email: 'owner@example.com', password: PASSWORD })
		const { access } = (await token.json()) as { access: string }
		const me = (await (
			await fetch(`${url}/accounts/me/`, { headers: { authorization: `Bearer ${access}` } })
		).json()) as { company: { id: number } }
		const invites: Array<{ token: string; email: string | null }> = []
		for (let i = 0; i < 20; i++) {
			const email = i % 2 === 0 ? `invited-${i}@example.com` : null
			const res = await post(`${url}/accounts/invites/`, email ? { email } : {}, access)
			invites.push({ token: ((await res.json()) as { token: string }).token, email })
		}

		// The burst: 80 new companies, 40 registrations by invite (two for each invite), 10 userbots.
		const attempts: Attempt[] = []
		const requests: Array<Promise<void>> = []
		const register = (email: string, body: Record<string, unknown>, companyId?: number) => {
			const attempt: Attempt = { email, companyId, status: 'no answer' }
			attempts.push(attempt)
			requests.push(
				post(`${url}/accounts/register/`, body).then(
					(res) => {
						attempt.status = res.status
					},
					() => {},
				),
			)
		}
		for (let i = 0; i < 80; i++) register(`new-${i}@example.com`, reg(`new-${i}@example.com`))
		for (const [i, inv] of invites.entries()) {
			for (const n of [0, 1]) {
				const email = inv.email ?? `open-${i}-${n}@example.com`
				register(email, { ...reg(email), invite: inv.token }, me.company.id)
			}
		}
		let userbotsMade = 0
		for (let i = 0; i < 10; i++) {
			requests.push(
				post(`${url}/api/userbots/`, { name: `bot ${i}` }, access).then(
					(res) => {
						if (res.status === 201) userbotsMade++
					},
					() => {},
				),
			)
		}
		// Kill once a few have been answered: the rest are mid-way (hashing, in a transaction, queued).
		for (let i = 0; i < 6000 && attempts.filter((a) => a.status !== 'no answer').length < 12; i++) {
			await Bun.sleep(5)
		}
		server.proc.kill('SIGKILL')
		await server.proc.exited
		await Promise.all(requests)
		const confirmed = attempts.filter((a) => a.status === 201)
		const cut = attempts.filter((a) => a.status === 'no answer')
		// The kill fell inside the burst: some were confirmed, some never answered.
		expect(confirmed.length).toBeGreaterThan(0)
		expect(cut.length).toBeGreaterThan(0)

		server = await start()
		const db = createClient({ url: `file:${join(dataDir, 'app.db')}` })
		const count = async (sql: string) => Number((await db.execute(sql)).rows[0]![0])
		try {
			// No user without a company (family A makes none).
			expect(await count('SELECT count(*) FROM user_profile WHERE company_id IS NULL')).toBe(0)
			// Every company has its owner, who is in it and marked owner.
			expect(
				await count(`SELECT count(*) FROM company c LEFT JOIN user_profile u ON u.id = c.owner_id
					WHERE u.id IS NULL OR u.company_id != c.id OR u.is_owner = 0`),
			).toBe(0)
			// Every owner owns the company they are in.
			expect(
				await count(`SELECT count(*) FROM user_profile u WHERE u.is_owner = 1 AND NOT EXISTS
					(SELECT 1 FROM company c WHERE c.id = u.company_id AND c.owner_id = u.id)`),
			).toBe(0)
			// An accepted invite names a user of its company; an open one names nobody.
			expect(
				await count(`SELECT count(*) FROM invite i LEFT JOIN user_profile u ON u.id = i.accepted_by
					WHERE (i.state = 'accepted' AND (u.id IS NULL OR u.company_id != i.company_id))
					   OR (i.state != 'accepted' AND i.accepted_by IS NOT NULL)`),
			).toBe(0)
			// Every member who is no owner came in by exactly one accepted invite.
			expect(
				await count(`SELECT count(*) FROM user_profile u WHERE u.is_owner = 0 AND
					(SELECT count(*) FROM invite i WHERE i.accepted_by = u.id AND i.state = 'accepted') != 1`),
			).toBe(0)
			// Every registration confirmed before the kill is there, in the right company.
			for (const a of confirmed) {
				const row = (
					await db.execute({ sql: 'SELECT company_id FROM user_profile WHERE email = ?', args: [a.email] })
				).rows[0]
				expect(row).toBeDefined()
				if (a.companyId !== undefined) expect(Number(row![0])).toBe(a.companyId)
			}
			// Every userbot row belongs to a company, and each is back with a log-in state.
			const rows = await count(
				'SELECT count(*) FROM userbot b JOIN company c ON c.id = b.company_id WHERE b.deleted_at IS NULL',
			)
			expect(rows).toBeGreaterThanOrEqual(userbotsMade)
			expect(
				await count(
					'SELECT count(*) FROM userbot b LEFT JOIN company c ON c.id = b.company_id WHERE c.id IS NULL',
				),
			).toBe(0)
		} finally {
			db.close()
		}
		const list = (await (
			await fetch(`${server.url}/api/userbots/`, { headers: { authorization: `Bearer ${access}` } })
		).json()) as Array<{ authorization_state: string | null }>
		expect(list.length).toBeGreaterThanOrEqual(userbotsMade)
		for (const bot of list) expect(bot.authorization_state).toBe('authorizationStateWaitPhoneNumber')

		// The restarted server registers as before, the cut-off ones included.
		for (const a of cut.slice(0, 3)) {
			if (a.companyId !== undefined) continue
			expect((await post(`${server.url}/accounts/register/`, reg(a.email))).status).toBe(201)
		}
		expect((await post(`${server.url}/accounts/register/`, reg('after@example.com'))).status).toBe(201)
	}, 90_000)
})

function reg(email: string) {
	return { email, password: PASSWORD, first_name: 'Burst', last_name: 'Test' }
}
