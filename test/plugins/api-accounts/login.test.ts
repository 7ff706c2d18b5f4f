import { afterAll, beforeAll, describe, expect, it, spyOn } from 'bun:test'
import { eq } from 'drizzle-orm'
import { company, statusOnWork, userProfile } from '../../../db/schema'
import {
	BAD_CREDENTIALS,
	edgeLogin,
	edgeSession,
	edgeUser,
	loggedIn,
	mainAccount,
	PASSWORD,
	type Pair,
	post,
	setMainProfile,
	startPair,
	uniqueEmail,
} from './support'

let pair: Pair
beforeAll(async () => {
	pair = await startPair()
})
afterAll(() => pair.stop())

const localProfile = async (email: string) => {
	const user = await edgeUser(pair.edge, email)
	if (!user) return undefined
	const [status] = await pair.edge.ctx.db
		.select()
		.from(statusOnWork)
		.where(eq(statusOnWork.id, user.statusId))
	const [own] =
		user.companyId === null
			? [undefined]
			: await pair.edge.ctx.db.select().from(company).where(eq(company.id, user.companyId))
	return { user, status, company: own }
}

describe('POST /api/accounts/login/', () => {
	it('logs an owner in: the spec body, HttpOnly Lax cookies, a local profile linked to the main', async () => {
		const owner = await mainAccount(pair.main, { first_name: 'Grace', last_name: 'Hopper' })
		const login = await edgeLogin(pair.edge, owner.email.toUpperCase())
		expect(login.status).toBe(200)
		const local = await localProfile(owner.email)
		expect(local).toBeDefined()
		expect(login.body).toEqual({
			sessionid: login.sessionId,
			user: { id: local?.user.id, email: owner.email },
		})
		expect(login.sessionId.length).toBeGreaterThanOrEqual(43)
		for (const name of ['sessionid', 'csrftoken']) {
			const cookie = login.setCookies.find((c) => c.startsWith(`${name}=`))
			expect(cookie).toContain('HttpOnly')
			expect(cookie).toContain('SameSite=Lax')
			expect(cookie).toContain('Path=/')
		}
		expect(local?.user).toMatchObject({
			firstName: 'Grace',
			lastName: 'Hopper',
			isOwner: true,
			mainServerId: owner.id,
			active: true,
		})
		expect(local?.status?.code).toBe('active')
		expect(local?.company).toMatchObject({
			name: "Grace's company",
			mainServerId: owner.companyId,
			active: true,
			ownerId: local?.user.id,
		})
		// The local session works like family A's.
		const me = await fetch(`${pair.edge.url}/accounts/me/`, { headers: { cookie: login.cookie } })
		expect(me.status).toBe(200)
		expect(await me.json()).toMatchObject({ email: owner.email, is_owner: true })
	})

	it("logs a non-owner in, into the local company standing for the owner's", async () => {
		const owner = await mainAccount(pair.main)
		const member = await mainAccount(pair.main, { invitedBy: owner, first_name: 'Linus' })
		await loggedIn(pair.edge, owner.email)
		const login = await edgeLogin(pair.edge, member.email)
		expect(login.status).toBe(200)
		const [ownerLocal, memberLocal] = [await localProfile(owner.email), await localProfile(member.email)]
		expect(memberLocal?.user.isOwner).toBe(false)
		expect(memberLocal?.user.mainServerId).toBe(member.id)
		expect(memberLocal?.company?.id).toBe(ownerLocal?.company?.id as number)
		expect(memberLocal?.company?.mainServerId).toBe(owner.companyId)
	})

	it('keeps the main server tokens in the session row only: not in the body nor in a cookie', async () => {
		const owner = await mainAccount(pair.main)
		const login = await edgeLogin(pair.edge, owner.email)
		expect(login.status).toBe(200)
		const row = await edgeSession(pair.edge, login.sessionId)
		expect(row?.mainAccessToken).toBeString()
		expect(row?.mainRefreshToken).toBeString()
		const everything = JSON.stringify(login.body) + login.setCookies.join('\n')
		for (const token of [row?.mainAccessToken, row?.mainRefreshToken, row?.accessToken, row?.refreshToken]) {
			expect(everything).not.toContain(token as string)
		}
		// They are the main's own: its me/ accepts the access token.
		const me = await fetch(`${pair.main.url}/accounts/me/`, {
			headers: { authorization: `Bearer ${row?.mainAccessToken}` },
		})
		expect(me.status).toBe(200)
	})

	it('updates the local profile at the next login: a new name and e-mail on the main show here', async () => {
		const owner = await mainAccount(pair.main, { first_name: 'Old', last_name: 'Name' })
		const first = await loggedIn(pair.edge, owner.email)
		const meOf = async (cookie: string) =>
			(await fetch(`${pair.edge.url}/accounts/me/`, { headers: { cookie } })).json()
		expect(await meOf(first.cookie)).toMatchObject({ first_name: 'Old' })
		const before = await localProfile(owner.email)
		const email = uniqueEmail('renamed')
		await setMainProfile(pair, owner.id, { firstName: 'New', lastName: 'Surname', email })
		const again = await loggedIn(pair.edge, email)
		const after = await localProfile(email)
		expect(after?.user.id).toBe(before?.user.id as number)
		expect(after?.user).toMatchObject({ firstName: 'New', lastName: 'Surname', email })
		expect(await edgeUser(pair.edge, owner.email)).toBeUndefined()
		// me/ on the edge shows the new name at once, in the session opened before too (the cached
		// profile was dropped).
		expect(await meOf(again.cookie)).toMatchObject({ first_name: 'New', last_name: 'Surname', email })
		expect(await meOf(first.cookie)).toMatchObject({ first_name: 'New', last_name: 'Surname', email })
	})

	it('answers a wrong password as the main does, with family A’s 401 body, and stores nothing', async () => {
		const owner = await mainAccount(pair.main)
		const wrong = await edgeLogin(pair.edge, owner.email, 'Wrong-password-1')
		expect(wrong.status).toBe(401)
		expect(wrong.body).toEqual(BAD_CREDENTIALS)
		expect(wrong.setCookies).toEqual([])
		const unknown = await edgeLogin(pair.edge, uniqueEmail('ghost'), 'Wrong-password-1')
		expect(unknown.status).toBe(401)
		expect(unknown.body).toEqual(BAD_CREDENTIALS)
		expect(await edgeUser(pair.edge, owner.email)).toBeUndefined()
	})

	it('answers an account switched off on the main with 401, as the main does (no enumeration)', async () => {
		const owner = await mainAccount(pair.main)
		await setMainProfile(pair, owner.id, { active: false })
		const login = await edgeLogin(pair.edge, owner.email)
		expect(login.status).toBe(401)
		expect(login.body).toEqual(BAD_CREDENTIALS)
	})

	it('issues a new session at every login and ends the one the cookie named', async () => {
		const owner = await mainAccount(pair.main)
		const first = await loggedIn(pair.edge, owner.email)
		const firstRow = await edgeSession(pair.edge, first.sessionId)
		const second = await edgeLogin(pair.edge, owner.email, PASSWORD, { cookie: first.cookie })
		expect(second.status).toBe(200)
		expect(second.sessionId).not.toBe(first.sessionId)
		expect(await edgeSession(pair.edge, first.sessionId)).toBeUndefined()
		// ...and the main's session of the first login with it.
		const reuse = await post(pair.main.url, '/accounts/token/refresh/', {
			refresh: firstRow?.mainRefreshToken,
		})
		expect(reuse.status).toBe(401)
	})

	it('checks fields as family A does, naming the field and echoing nothing', async () => {
		const secret = 'x'.repeat(300)
		const res = await post(pair.edge.url, '/api/accounts/login/', { email: secret, password: 7 })
		expect(res.status).toBe(400)
		const text = await res.text()
		expect(JSON.parse(text)).toEqual({
			email: ['Ensure this field has no more than 254 characters.'],
			password: ['Not a valid string.'],
		})
		expect(text).not.toContain('xxxxxxxx')
		const missing = await post(pair.edge.url, '/api/accounts/login/', '')
		expect(await missing.json()).toEqual({
			email: ['This field is required.'],
			password: ['This field is required.'],
		})
		const notJson = await post(pair.edge.url, '/api/accounts/login/', '{"email": ')
		expect(notJson.status).toBe(400)
		expect(((await notJson.json()) as { detail: string }).detail).toStartWith('JSON parse error - ')
		const get = await fetch(`${pair.edge.url}/api/accounts/login/`)
		expect(get.status).toBe(405)
	})
})

describe('family A on the edge', () => {
	it('never logs in an account made by family B, at the cost of any failure', async () => {
		const owner = await mainAccount(pair.main)
		await loggedIn(pair.edge, owner.email)
		const verify = spyOn(pair.edgeCore.hasher, 'verify')
		try {
			for (const path of ['/accounts/login/', '/accounts/token/']) {
				const res = await post(pair.edge.url, path, { email: owner.email, password: PASSWORD })
				expect(res.status).toBe(401)
				expect(await res.json()).toEqual(BAD_CREDENTIALS)
			}
			// One argon2id verification each, as for any wrong password.
			expect(verify.mock.calls.length).toBe(2)
		} finally {
			verify.mockRestore()
		}
		// Not even once it has a password here (a reset): its rules live on the main server.
		const local = await edgeUser(pair.edge, owner.email)
		await pair.edge.ctx.db
			.update(userProfile)
			.set({ passwordHash: await pair.edgeCore.hasher.hash(PASSWORD) })
			.where(eq(userProfile.id, local?.id as number))
		const res = await post(pair.edge.url, '/accounts/login/', { email: owner.email, password: PASSWORD })
		expect(res.status).toBe(401)
	})

	it('stores a hash nobody knows the password of for a family B account', async () => {
		const owner = await mainAccount(pair.main)
		await loggedIn(pair.edge, owner.email)
		const local = await edgeUser(pair.edge, owner.email)
		expect(local?.passwordHash).toStartWith('$argon2id$v=19$m=19456,t=2,')
		expect(await Bun.password.verify(PASSWORD, local?.passwordHash as string)).toBe(false)
	})
})
