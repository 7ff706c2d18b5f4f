import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { type AccountsApp, type LoggedIn, login, registerAccount, startAccounts } from './support'

let app: AccountsApp
let owner: LoggedIn
let member: { id: number; session: LoggedIn }
let stranger: { id: number; session: LoggedIn }

async function invited(by: LoggedIn) {
	const res = await app.post('/accounts/invites/', {}, { cookie: by.cookie, origin: app.url })
	const { token } = (await res.json()) as { token: string }
	const account = await registerAccount(app, { invite: token })
	return { id: account.id, session: await login(app, account.email) }
}

beforeAll(async () => {
	app = await startAccounts()
	owner = await login(app, (await registerAccount(app)).email)
	member = await invited(owner)
	// Another company's owner, and a member of theirs.
	const otherOwner = await login(app, (await registerAccount(app)).email)
	stranger = await invited(otherOwner)
})
afterAll(() => app.stop())

const as = (s: LoggedIn) => ({ cookie: s.cookie, origin: app.url })
const setStatus = (s: LoggedIn, id: number | string, body: unknown) =>
	app.post(`/accounts/members/${id}/status/`, body, as(s))
const statusOf = async (s: LoggedIn) =>
	((await (await app.me({ cookie: s.cookie })).json()) as { status: { code: string; name: string } }).status

describe('members and work statuses (family A)', () => {
	it('lists the work statuses to any signed-in caller, and to nobody else', async () => {
		const res = await app.get('/accounts/statuses/', { cookie: member.session.cookie })
		expect(res.status).toBe(200)
		expect(await res.json()).toEqual([
			{ code: 'active', name: 'Active', allows_work: true },
			{ code: 'on_leave', name: 'On Leave', allows_work: false },
			{ code: 'dismissed', name: 'Dismissed', allows_work: false },
		])
		expect((await app.get('/accounts/statuses/')).status).toBe(401)
	})

	it("lists the owner's company only, owner first, with each status", async () => {
		const res = await app.get('/accounts/members/', { cookie: owner.cookie })
		expect(res.status).toBe(200)
		const list = (await res.json()) as Array<{ id: number; is_owner: boolean; status: { code: string } }>
		expect(list.map((m) => m.is_owner)).toEqual([true, false])
		expect(list[1]).toMatchObject({ id: member.id, status: { code: 'active', name: 'Active' } })
		expect(list.some((m) => m.id === stranger.id)).toBe(false)
	})

	it('refuses a member who is not the owner: 403 on the list and on a change', async () => {
		expect((await app.get('/accounts/members/', { cookie: member.session.cookie })).status).toBe(403)
		const res = await setStatus(member.session, member.id, { status: 'on_leave' })
		expect(res.status).toBe(403)
		expect(await statusOf(member.session)).toMatchObject({ code: 'active' })
	})

	it("sets a member's status: me/ refuses one that does not allow work at once, and shows the next", async () => {
		expect(await statusOf(member.session)).toMatchObject({ code: 'active' })
		const res = await setStatus(owner, member.id, { status: 'on_leave' })
		expect(res.status).toBe(200)
		expect(await res.json()).toMatchObject({
			id: member.id,
			status: { code: 'on_leave', name: 'On Leave', allows_work: false },
		})
		const refused = await app.me({ cookie: member.session.cookie })
		expect(refused.status).toBe(403)
		expect(await refused.json()).toEqual({ detail: 'Permission denied', code: 'status_not_allowed' })
		// The session was refused, not ended: a status that allows work lets it in again.
		expect((await setStatus(owner, member.id, { status: 'active' })).status).toBe(200)
		expect(await statusOf(member.session)).toEqual({ code: 'active', name: 'Active' })
	})

	it("answers 404 for another company's member, and leaves them as they were", async () => {
		const res = await setStatus(owner, stranger.id, { status: 'dismissed' })
		expect(res.status).toBe(404)
		expect(await statusOf(stranger.session)).toMatchObject({ code: 'active' })
		expect((await setStatus(owner, 'abc', { status: 'dismissed' })).status).toBe(404)
	})

	it('validates the body without echoing it', async () => {
		const cases: Array<[unknown, Record<string, string[]>]> = [
			[{}, { status: ['This field is required.'] }],
			[{ status: 7 }, { status: ['Not a valid string.'] }],
			[
				{ status: 'on_holiday<script>' },
				{ status: ['Select a valid choice. That choice is not one of the available choices.'] },
			],
		]
		for (const [body, answer] of cases) {
			const res = await setStatus(owner, member.id, body)
			expect(res.status).toBe(400)
			expect(await res.json()).toEqual(answer)
		}
		expect((await setStatus(owner, member.id, '[1]')).status).toBe(400)
		expect(await statusOf(member.session)).toMatchObject({ code: 'active' })
	})

	it('needs CSRF for a cookie change, like every unsafe request', async () => {
		const res = await app.post(
			`/accounts/members/${member.id}/status/`,
			{ status: 'on_leave' },
			{ cookie: owner.cookie },
		)
		expect(res.status).toBe(403)
		expect(await statusOf(member.session)).toMatchObject({ code: 'active' })
	})
})
