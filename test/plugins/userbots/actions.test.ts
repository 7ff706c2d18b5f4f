import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { auditLog } from '../../../db/schema'
import { joinCompany } from '../../gateway/company'
import {
	createUserbot,
	type FreshServer,
	logInOverRest,
	type Member,
	memberFor,
	PLAIN_ACCOUNT,
	serveFresh,
	signUp,
} from './support'

/**
 * The userbot card's actions over REST (docs/rest.md#userbot-actions): rename, log out, restart.
 * Over the real server on the emulator.
 */
let server: FreshServer
let owner: Member
let stranger: Member
let member: Member

const READY = 'authorizationStateReady'
const WAIT_PHONE = 'authorizationStateWaitPhoneNumber'

beforeAll(async () => {
	server = await serveFresh()
	owner = await signUp(server.url, 'owner')
	stranger = await signUp(server.url, 'stranger')
	// The invite is the owner's: only their token is used.
	const inviter = { email: owner.email, password: '', userId: 0, companyId: 0, access: owner.access }
	const joined = await joinCompany(server, inviter, `member.${Date.now().toString(36)}@example.com`)
	member = await memberFor(server.url, joined.email, joined.password)
})

afterAll(() => server.dispose())

const view = async (id: number) =>
	(await (await owner.call('GET', `/api/userbots/${id}/`)).json()) as {
		id: number
		name: string
		phone_number: string | null
		authorization_state: string
	}

const auditActions = async (id: number) =>
	(
		await server.ctx.db
			.select({ action: auditLog.action })
			.from(auditLog)
			.where(eq(auditLog.target, `userbot:${id}`))
	).map((r) => r.action)

describe('rename', () => {
	it('renames the userbot and answers its view; the audit log says so', async () => {
		const id = await createUserbot(owner)
		const res = await owner.call('PATCH', `/api/userbots/${id}/`, { name: '  Sales desk  ' })
		expect(res.status).toBe(200)
		expect(await res.json()).toMatchObject({ id, name: 'Sales desk', authorization_state: WAIT_PHONE })
		expect((await view(id)).name).toBe('Sales desk')
		expect(await auditActions(id)).toContain('userbot.renamed')
	})

	it("refuses a bad name with POST's field errors, never echoing it", async () => {
		const id = await createUserbot(owner)
		const long = `secret-${'x'.repeat(200)}`
		for (const [body, error] of [
			[{ name: long }, 'Ensure this field has no more than 128 characters.'],
			[{ name: 'bad\u0007name' }, 'Control characters are not allowed.'],
			[{ name: 42 }, 'Not a valid string.'],
			[{}, 'This field is required.'],
		] as const) {
			const res = await owner.call('PATCH', `/api/userbots/${id}/`, body)
			expect(res.status).toBe(400)
			const text = await res.text()
			expect(JSON.parse(text)).toEqual({ name: [error] })
			expect(text).not.toContain('secret-')
		}
		expect((await view(id)).name).toBe('')
	})
})

describe('log out', () => {
	it('ends the session of a Ready userbot: it stays, waiting for a phone number, and logs in again', async () => {
		const id = await createUserbot(owner)
		await logInOverRest(owner, id)
		expect((await view(id)).authorization_state).toBe(READY)
		const res = await owner.call('POST', `/api/userbots/${id}/logout/`)
		expect(res.status).toBe(200)
		expect(await res.json()).toEqual({ authorization_state: WAIT_PHONE })
		const after = await view(id)
		expect(after).toMatchObject({ id, authorization_state: WAIT_PHONE, phone_number: null })
		expect(await auditActions(id)).toContain('userbot.logged_out')
		await logInOverRest(owner, id)
		expect((await view(id)).authorization_state).toBe(READY)
	})

	it('refuses one that is not logged in, in words', async () => {
		const id = await createUserbot(owner)
		const res = await owner.call('POST', `/api/userbots/${id}/logout/`)
		expect(res.status).toBe(400)
		expect(await res.json()).toEqual({
			detail: `userbot is not logged in (state: ${WAIT_PHONE})`,
			code: 'wrong_state',
		})
	})
})

describe('restart', () => {
	it('stops and starts the client: still Ready, the same id', async () => {
		const id = await createUserbot(owner)
		await logInOverRest(owner, id)
		const res = await owner.call('POST', `/api/userbots/${id}/restart/`)
		expect(res.status).toBe(200)
		expect(await res.json()).toEqual({ authorization_state: READY })
		expect(await view(id)).toMatchObject({ id, authorization_state: READY })
		expect(await auditActions(id)).toContain('userbot.restarted')
		const all = (await (await owner.call('GET', '/api/userbots/')).json()) as Array<{ id: number }>
		expect(all.filter((u) => u.id === id)).toHaveLength(1)
	})
})

describe('restart beside a log-in step', () => {
	it('has the step wait for the new client: never a 503 for a client between its stop and its start', async () => {
		const id = await createUserbot(owner)
		for (let round = 0; round < 10; round++) {
			const [restart, qr] = await Promise.all([
				owner.call('POST', `/api/userbots/${id}/restart/`),
				owner.call('POST', `/api/userbots/${id}/qr/`),
			])
			expect(restart.status).toBe(200)
			expect([qr.status, round]).toEqual([200, round])
		}
	})
})

describe('who may', () => {
	const actions = (id: number) =>
		[
			['PATCH', `/api/userbots/${id}/`, { name: 'mine now' }],
			['POST', `/api/userbots/${id}/logout/`, undefined],
			['POST', `/api/userbots/${id}/restart/`, undefined],
		] as const

	it("another company's user gets 404 for each, and nothing changes", async () => {
		const id = await createUserbot(owner)
		await logInOverRest(owner, id, PLAIN_ACCOUNT)
		for (const [method, path, body] of actions(id)) {
			const res = await stranger.call(method, path, body)
			expect(res.status).toBe(404)
			expect(await res.json()).toEqual({ detail: 'Not found.' })
		}
		expect(await view(id)).toMatchObject({ name: '', authorization_state: READY })
		expect(await auditActions(id)).toEqual(['userbot.created'])
	})

	it('a member without userbots.manage is refused, as for delete', async () => {
		const id = await createUserbot(owner)
		await logInOverRest(owner, id)
		for (const [method, path, body] of actions(id)) {
			const res = await member.call(method, path, body)
			expect(res.status).toBe(403)
			expect(await res.json()).toMatchObject({ code: 'permission_denied' })
		}
		expect(await view(id)).toMatchObject({ name: '', authorization_state: READY })
	})
})
