import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { userProfile } from '../../../db/schema'
import {
	edgeLogin,
	edgeSessionsOf,
	edgeUser,
	liveMainTokens,
	loggedIn,
	type MainAccount,
	mainAccount,
	PASSWORD,
	type Pair,
	PERMISSION_DENIED,
	post,
	setMainCompanyActive,
	setMainProfile,
	setMainStatus,
	startPair,
} from './support'

let pair: Pair
beforeAll(async () => {
	pair = await startPair()
})
afterAll(() => pair.stop())

/** Logs in on the edge and expects the refusal: 403 with its code, no cookie, no session on the main left. */
async function expectRefused(account: MainAccount, code: string) {
	const before = (await liveMainTokens(pair, account.id)).length
	const login = await edgeLogin(pair.edge, account.email)
	expect(login.status).toBe(403)
	expect(login.body).toEqual(PERMISSION_DENIED(code))
	expect(login.setCookies).toEqual([])
	// The pair the main gave for this login was blacklisted there.
	expect((await liveMainTokens(pair, account.id)).length).toBe(before)
	const local = await edgeUser(pair.edge, account.email)
	if (local) expect(await edgeSessionsOf(pair.edge, local.id)).toEqual([])
}

describe('access rules of family B login', () => {
	it('refuses a non-owner On Leave with status_not_allowed, and ends the sessions opened here before', async () => {
		const owner = await mainAccount(pair.main)
		const member = await mainAccount(pair.main, { invitedBy: owner })
		await loggedIn(pair.edge, member.email)
		const local = await edgeUser(pair.edge, member.email)
		expect(local?.mainServerId).toBe(member.id)
		expect(await edgeSessionsOf(pair.edge, local?.id as number)).toHaveLength(1)
		await setMainStatus(pair, member.id, 'on_leave')
		// The main itself gives no pair now (its token/ answers 403 status_not_allowed): the edge says so,
		// and ends what it had opened for the account (expectRefused checks no session is left).
		await expectRefused(member, 'status_not_allowed')
		expect(await edgeSessionsOf(pair.edge, local?.id as number)).toEqual([])
	})

	it('refuses a non-owner Dismissed with status_not_allowed', async () => {
		const owner = await mainAccount(pair.main)
		const member = await mainAccount(pair.main, { invitedBy: owner })
		await setMainStatus(pair, member.id, 'dismissed')
		await expectRefused(member, 'status_not_allowed')
	})

	it('lets an owner On Leave in: the owner rule asks no work status', async () => {
		const owner = await mainAccount(pair.main)
		await setMainStatus(pair, owner.id, 'on_leave')
		expect((await edgeLogin(pair.edge, owner.email)).status).toBe(200)
	})

	it('refuses owner and member of a company switched off on the main with company_inactive', async () => {
		const owner = await mainAccount(pair.main)
		const member = await mainAccount(pair.main, { invitedBy: owner })
		await setMainCompanyActive(pair, owner.companyId, false)
		await expectRefused(owner, 'company_inactive')
		await expectRefused(member, 'company_inactive')
		// Switched on again on the main, both get in, and the local company follows.
		await setMainCompanyActive(pair, owner.companyId, true)
		await loggedIn(pair.edge, owner.email)
		await loggedIn(pair.edge, member.email)
	})

	it('refuses an account switched off on this server with account_inactive, though the main accepts it', async () => {
		const owner = await mainAccount(pair.main)
		const first = await loggedIn(pair.edge, owner.email)
		const local = await edgeUser(pair.edge, owner.email)
		await pair.edge.ctx.db
			.update(userProfile)
			.set({ active: false })
			.where(eq(userProfile.id, local?.id as number))
		pair.edgeCore.invalidateUser(local?.id as number, true)
		await expectRefused(owner, 'account_inactive')
		const me = await fetch(`${pair.edge.url}/accounts/me/`, { headers: { cookie: first.cookie } })
		expect(me.status).toBe(401)
	})

	it('refuses an account in no company with no_company', async () => {
		const owner = await mainAccount(pair.main)
		await setMainProfile(pair, owner.id, { companyId: null, isOwner: false })
		await expectRefused(owner, 'no_company')
	})

	it('ends the sessions opened before when a later login is refused', async () => {
		const owner = await mainAccount(pair.main)
		const member = await mainAccount(pair.main, { invitedBy: owner })
		const open = await loggedIn(pair.edge, member.email)
		await setMainStatus(pair, member.id, 'dismissed')
		await expectRefused(member, 'status_not_allowed')
		const me = await fetch(`${pair.edge.url}/accounts/me/`, { headers: { cookie: open.cookie } })
		expect(me.status).toBe(401)
	})

	it('never merges a local account of the same e-mail into the main one: account_conflict', async () => {
		const owner = await mainAccount(pair.main)
		const reg = await post(pair.edge.url, '/accounts/register/', {
			email: owner.email,
			password: PASSWORD,
			first_name: 'Local',
			last_name: 'Person',
		})
		expect(reg.status).toBe(201)
		await expectRefused(owner, 'account_conflict')
		const local = await edgeUser(pair.edge, owner.email)
		expect(local?.mainServerId).toBeNull()
		expect(local?.firstName).toBe('Local')
		// The local account still logs in with its own password.
		expect(
			(await post(pair.edge.url, '/accounts/login/', { email: owner.email, password: PASSWORD })).status,
		).toBe(200)
	})

	it('counts refusals toward the rate limit', async () => {
		const owner = await mainAccount(pair.main)
		const member = await mainAccount(pair.main, { invitedBy: owner })
		await setMainStatus(pair, member.id, 'on_leave')
		for (let i = 0; i < 5; i++) expect((await edgeLogin(pair.edge, member.email)).status).toBe(403)
		expect((await edgeLogin(pair.edge, member.email)).status).toBe(429)
	})
})
