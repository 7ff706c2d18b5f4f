import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { invite } from '../../../db/schema'
import { type AccountsApp, login, PASSWORD, registerAccount, startAccounts, uniqueEmail } from './support'

let app: AccountsApp
let owner: { cookie: string; companyId: number }
beforeAll(async () => {
	app = await startAccounts()
	const user = await registerAccount(app)
	const s = await login(app, user.email)
	const profile = (await (await app.get('/accounts/me/', { cookie: s.cookie })).json()) as {
		company: { id: number }
	}
	owner = { cookie: s.cookie, companyId: profile.company.id }
})
afterAll(() => app.stop())

const asOwner = () => ({ cookie: owner.cookie, origin: app.url })

const registerWith = (invite: string, email = uniqueEmail()) =>
	app.post('/accounts/register/', { email, password: PASSWORD, invite })

const INVALID_INVITE = { invite: ['Invalid or expired invite.'] }

async function createInvite(body: Record<string, unknown> = {}) {
	const res = await app.post('/accounts/invites/', body, asOwner())
	expect(res.status).toBe(201)
	return (await res.json()) as {
		id: number
		token: string
		email: string | null
		expires_at: string
		state: string
	}
}

describe('invites', () => {
	it('lets an owner invite; the invitee registers into the same company, not as owner', async () => {
		const inv = await createInvite()
		expect(inv.state).toBe('pending')
		expect(inv.token.length).toBeGreaterThanOrEqual(43)
		expect(Date.parse(inv.expires_at)).toBeGreaterThan(Date.now())
		const member = await registerAccount(app, { invite: inv.token })
		const s = await login(app, member.email)
		const profile = (await (await app.get('/accounts/me/', { cookie: s.cookie })).json()) as {
			company: { id: number }
			is_owner: boolean
			status: { code: string }
		}
		expect(profile.company.id).toBe(owner.companyId)
		expect(profile.is_owner).toBe(false)
		expect(profile.status.code).toBe('active')
		// Used once: a second registration with it is refused.
		const again = await registerWith(inv.token)
		expect(again.status).toBe(400)
		expect(await again.json()).toEqual(INVALID_INVITE)
		// A member may not invite.
		const denied = await app.post('/accounts/invites/', {}, { cookie: s.cookie, origin: app.url })
		expect(denied.status).toBe(403)
		expect((await app.get('/accounts/invites/', { cookie: s.cookie })).status).toBe(403)
	})

	it('lists invites without their tokens, the accepted one as accepted', async () => {
		const inv = await createInvite({ email: 'Listed@Example.com' })
		const res = await app.get('/accounts/invites/', asOwner())
		expect(res.status).toBe(200)
		const list = (await res.json()) as Array<Record<string, unknown>>
		const found = list.find((i) => i.id === inv.id)
		expect(found?.email).toBe('listed@example.com')
		expect(list.some((i) => i.state === 'accepted')).toBe(true)
		expect(JSON.stringify(list)).not.toContain(inv.token)
		for (const i of list) expect(i).not.toHaveProperty('token')
	})

	it('refuses a revoked invite', async () => {
		const inv = await createInvite()
		const res = await app.post(`/accounts/invites/${inv.id}/revoke/`, {}, asOwner())
		expect(res.status).toBe(200)
		expect(((await res.json()) as { state: string }).state).toBe('revoked')
		const reg = await registerWith(inv.token)
		expect(reg.status).toBe(400)
		expect(await reg.json()).toEqual(INVALID_INVITE)
	})

	it('shows an invite past its expiry as expired and refuses it', async () => {
		const inv = await createInvite()
		await app.ctx.db
			.update(invite)
			.set({ expiresAt: Date.now() - 1000 })
			.where(eq(invite.id, inv.id))
		const list = (await (await app.get('/accounts/invites/', asOwner())).json()) as Array<{
			id: number
			state: string
		}>
		expect(list.find((i) => i.id === inv.id)?.state).toBe('expired')
		const reg = await registerWith(inv.token)
		expect(reg.status).toBe(400)
		expect(await reg.json()).toEqual(INVALID_INVITE)
	})

	it('will not revoke an accepted invite', async () => {
		const inv = await createInvite()
		await registerAccount(app, { invite: inv.token })
		const res = await app.post(`/accounts/invites/${inv.id}/revoke/`, {}, asOwner())
		expect(res.status).toBe(400)
		expect(((await res.json()) as { code: string }).code).toBe('invalid_state')
	})

	it('refuses an invite meant for another address, and an unknown token', async () => {
		const inv = await createInvite({ email: uniqueEmail('meant') })
		const reg = await registerWith(inv.token, uniqueEmail('other'))
		expect(reg.status).toBe(400)
		const unknown = await registerWith('nope')
		expect(unknown.status).toBe(400)
	})

	it("answers 404 for another company's invite and without a session 401", async () => {
		const other = await registerAccount(app)
		const s = await login(app, other.email)
		const inv = await createInvite()
		const res = await app.post(
			`/accounts/invites/${inv.id}/revoke/`,
			{},
			{ cookie: s.cookie, origin: app.url },
		)
		expect(res.status).toBe(404)
		expect((await app.post('/accounts/invites/', {})).status).toBe(401)
	})
})
