import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { SEED_CHATS } from '../../src/emulator'
import type { RequestEvent } from '../../src/runtime/supervisor/types'
import { connectWs, registerUser, type WsClient } from '../helpers-ws'
import { type Company, joinCompany, startCompany } from './company'

/**
 * Roles (docs/rest.md#members-and-owners): a member uses the company's userbots; creating and deleting
 * one, and the commands that change the Telegram account itself or give a chat away, are owner-only
 * unless the owner grants them. The permission a command needs is data on the command; the gateway
 * checks the principal as it stands at each command, so a grant or revoke reaches an open socket.
 */
const OWNER_ONLY = [
	'change_2fa_password',
	'change_2fa_recovery_email',
	'check_password_recovery_code',
	'check_recovery_email_address_code',
	'disable_2fa_password',
	'recover_password',
	'request_password_recovery',
	'resend_recovery_email_address_code',
	'set_account_ttl',
	'set_privacy_setting',
	'terminate_all_other_sessions',
	'terminate_session',
	'transfer_chat_ownership',
	'userbot_log_out',
	'userbot_rename',
	'userbot_restart',
	'verify_2fa_password',
]
const DENIED = 'permission denied'

let c: Company
const seen: RequestEvent[] = []
const sockets: WsClient[] = []
beforeAll(async () => {
	c = await startCompany()
	c.t.ctx.runtime?.onRequest((event) => seen.push(event))
})
afterAll(async () => {
	for (const s of sockets) s.close()
	await c.stop()
})

const connect = async (access: string) => {
	const s = await connectWs(c.t.url, { bearer: access })
	sockets.push(s)
	return s
}
const grants = (id: number) => c.call('GET', `/accounts/members/${id}/grants/`, c.owner.access)
const grant = (id: number, permission: unknown) =>
	c.call('POST', `/accounts/members/${id}/grants/`, c.owner.access, { permission })
const revoke = (id: number, permission: string) =>
	c.call('DELETE', `/accounts/members/${id}/grants/${permission}/`, c.owner.access)

describe('what a member may do', () => {
	it('refuses a member every owner-only command with `permission denied`, before anything reaches TDLib', async () => {
		const ownerOnly = [...c.t.commands.values()].filter((e) => e.command.policy.permission)
		expect(ownerOnly.map((e) => e.command.name).sort()).toEqual(OWNER_ONLY)
		const s = await connect(c.member.access)
		const before = seen.length
		const answers: string[] = []
		for (const { command } of ownerOnly) {
			const reply = await s.command({
				action: command.name,
				userbot_id: c.userbotId,
				...command.examples?.[0],
			})
			answers.push(`${command.name}: ${reply.payload.error}`)
		}
		expect(answers.sort()).toEqual(OWNER_ONLY.map((name) => `${name}: ${DENIED}`))
		expect(seen.slice(before).map((e) => `${e.label}: ${e.request._}`)).toEqual([])
		// The owner's same frame gets past the check (TDLib answers it, whatever it says).
		const owners = await connect(c.owner.access)
		const reply = await owners.command({ action: 'get_account_ttl', userbot_id: c.userbotId })
		expect(reply.payload.type).toBe('get_account_ttl')
		const ttl = await owners.command({ action: 'set_account_ttl', userbot_id: c.userbotId, days: 365 })
		expect(ttl.payload).toMatchObject({ type: 'set_account_ttl', result: { days: 365 } })
	})

	it('lets a member use the userbot: the commands that need no permission, and its REST reads', async () => {
		const s = await connect(c.member.access)
		for (const action of [
			'get_password_state',
			'get_account_ttl',
			'get_active_sessions',
			'get_chat_members',
		]) {
			const chat = action === 'get_chat_members' ? { chat_id: SEED_CHATS.supergroup } : {}
			const reply = await s.command({ action, userbot_id: c.userbotId, ...chat })
			expect({ action, error: reply.payload.error }).toEqual({ action, error: undefined })
		}
		const list = await c.call('GET', '/api/userbots/', c.member.access)
		expect(list.status).toBe(200)
		expect(((await list.json()) as Array<{ id: number }>).map((b) => b.id)).toContain(c.userbotId)
		expect((await c.call('GET', `/api/userbots/${c.userbotId}/`, c.member.access)).status).toBe(200)
	})

	it('refuses a member creating or deleting a userbot, 403 `permission_denied`, and lets the owner', async () => {
		const refused = {
			detail: 'You do not have permission to perform this action.',
			code: 'permission_denied',
		}
		const create = await c.call('POST', '/api/userbots/', c.member.access, { name: 'no' })
		expect(create.status).toBe(403)
		expect(await create.json()).toEqual(refused)
		const remove = await c.call('DELETE', `/api/userbots/${c.userbotId}/`, c.member.access)
		expect(remove.status).toBe(403)
		expect(await remove.json()).toEqual(refused)
		expect((await c.call('GET', `/api/userbots/${c.userbotId}/`, c.owner.access)).status).toBe(200)
		// Another company's userbot is still a 404 for the member, not a 403 that would say it exists.
		const stranger = await registerUser(c.t, `stranger-${Date.now()}@example.com`)
		const made = await c.call('POST', '/api/userbots/', stranger.access, { name: 'theirs' })
		const { id } = (await made.json()) as { id: number }
		expect((await c.call('DELETE', `/api/userbots/${id}/`, c.member.access)).status).toBe(404)
		expect((await c.call('DELETE', `/api/userbots/${id}/`, stranger.access)).status).toBe(204)
	})
})

describe("an owner's grants", () => {
	it('reach the member’s open socket at its next command, and a revoke takes them back', async () => {
		const m = await joinCompany(c.t, c.owner, `granted-${Date.now()}@example.com`)
		const s = await connect(m.access)
		const verify = async () =>
			(await s.command({ action: 'verify_2fa_password', userbot_id: c.userbotId, password: 'secret-x' }))
				.payload.error
		expect(await verify()).toBe(DENIED)

		const granted = await grant(m.userId, 'security.password')
		expect(granted.status).toBe(201)
		expect(await granted.json()).toMatchObject({
			permission: 'security.password',
			granted_by: c.owner.userId,
		})
		// The emulated account has no 2FA password: TDLib's turn now, not the permission's.
		expect(await verify()).toBe('2-step verification is not enabled')
		expect((await grant(m.userId, 'security.password')).status).toBe(200)
		const listed = (await (await grants(m.userId)).json()) as Array<{ permission: string }>
		expect(listed.map((g) => g.permission)).toEqual(['security.password'])

		expect((await revoke(m.userId, 'security.password')).status).toBe(204)
		expect(await verify()).toBe(DENIED)
		expect(s.ws.readyState).toBe(WebSocket.OPEN)
		expect(await (await grants(m.userId)).json()).toEqual([])
		expect((await revoke(m.userId, 'security.password')).status).toBe(404)
	})

	it('are validated, listed for anyone signed in, and the owner’s alone to give', async () => {
		const m = c.member
		expect((await grant(m.userId, undefined)).status).toBe(400)
		const unknown = await grant(m.userId, 'everything')
		expect(unknown.status).toBe(400)
		expect(await unknown.json()).toEqual({
			permission: ['Select a valid choice. That choice is not one of the available choices.'],
		})
		expect(await (await grant(m.userId, 7)).json()).toEqual({ permission: ['Not a valid string.'] })
		expect((await revoke(m.userId, 'everything')).status).toBe(404)
		// A member cannot grant, list or revoke, not even their own.
		const own = (method: string, path: string, body?: unknown) => c.call(method, path, m.access, body)
		expect(
			(await own('POST', `/accounts/members/${m.userId}/grants/`, { permission: 'userbots.manage' })).status,
		).toBe(403)
		expect((await own('GET', `/accounts/members/${m.userId}/grants/`)).status).toBe(403)
		expect((await own('DELETE', `/accounts/members/${m.userId}/grants/userbots.manage/`)).status).toBe(403)
		// Another company's member is not found.
		const otherOwner = await registerUser(c.t, `grant-owner-${Date.now()}@example.com`)
		const stranger = await joinCompany(c.t, otherOwner, `grant-stranger-${Date.now()}@example.com`)
		expect((await grant(stranger.userId, 'userbots.manage')).status).toBe(404)
		expect((await grants(stranger.userId)).status).toBe(404)
		expect((await c.call('POST', '/api/userbots/', stranger.access, {})).status).toBe(403)
		// The permissions themselves, with what each allows.
		const list = await own('GET', '/accounts/permissions/')
		expect(list.status).toBe(200)
		const permissions = (await list.json()) as Array<{ code: string; description: string }>
		expect(permissions.map((p) => p.code)).toEqual([
			'userbots.manage',
			'security.password',
			'security.account_ttl',
			'sessions.terminate',
			'privacy.change',
			'chats.transfer_ownership',
		])
		for (const p of permissions) expect(p.description.length).toBeGreaterThan(10)
	})
})
