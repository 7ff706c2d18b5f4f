import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { type Company, joinCompany, startCompany } from '../gateway/company'
import { connectWs, createLoggedInUserbot, registerUser, type WsClient } from '../helpers-ws'

/**
 * Issue 28, the audit log: what changes an account or a company leaves one line each (who: a user
 * or a key; what; on what; when; from which address), never a secret, readable by the company's
 * owner alone through `GET /api/audit/`.
 */
interface Line {
	id: number
	at: string
	action: string
	user_id: number | null
	key_id: number | null
	target: string | null
	detail: Record<string, unknown> | null
	client: string | null
}

const TWO_FA = 'audit-2fa-secret-Zq9'
let c: Company
let ws: WsClient
beforeAll(async () => {
	c = await startCompany({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' })
	ws = await connectWs(c.t.url, { bearer: c.owner.access })
})
afterAll(async () => {
	ws.close()
	await c.stop()
})

const lines = async (access = c.owner.access): Promise<Line[]> => {
	const res = await c.call('GET', '/api/audit/?limit=100', access)
	expect(res.status).toBe(200)
	return (await res.json()) as Line[]
}
/** The newest line of `action`: there must be one. */
const newest = async (action: string): Promise<Line> => {
	const found = (await lines()).find((l) => l.action === action)
	if (!found) throw new Error(`no ${action} line`)
	return found
}
const run = async (action: string, fields: Record<string, unknown>, bot = c.userbotId) => {
	const reply = await ws.command({ action, userbot_id: bot, ...fields })
	expect(reply.payload.error).toBeUndefined()
	expect(reply.payload.type).toBe(action)
	return reply.payload.result
}

describe('the audit log', () => {
	it('records 2FA changes, a chat ownership transfer and session terminations made by commands', async () => {
		const byOwner = {
			user_id: c.owner.userId,
			key_id: null,
			target: `userbot:${c.userbotId}`,
			client: '127.0.0.1',
		}
		await run('change_2fa_password', { current_password: 'none yet', new_password: TWO_FA })
		expect(await newest('twofa.changed')).toMatchObject({
			...byOwner,
			detail: { command: 'change_2fa_password', password_changed: true, recovery_email_changed: false },
		})

		const runtime = c.t.ctx.runtime!
		const chat = (await runtime.invoke(c.userbotId, {
			_: 'createNewSupergroupChat',
			title: 'Audited',
			is_channel: false,
		})) as { id: number }
		await runtime.invoke(c.userbotId, { _: 'addChatMembers', chat_id: chat.id, user_ids: [1001] })
		await run('transfer_chat_ownership', { chat_id: chat.id, user_id: 1001, password: TWO_FA })
		expect(await newest('chat.ownership_transferred')).toMatchObject({
			...byOwner,
			detail: { command: 'transfer_chat_ownership', chat_id: chat.id, user_id: 1001 },
		})

		await run('disable_2fa_password', { current_password: TWO_FA })
		expect(await newest('twofa.disabled')).toMatchObject({
			...byOwner,
			detail: { command: 'disable_2fa_password' },
		})

		// A second device of the same account, which the first then logs out.
		await createLoggedInUserbot(c.t, c.owner.companyId, '9996621234')
		const { sessions } = (await run('get_active_sessions', {})) as {
			sessions: Array<{ id: string; is_current: boolean }>
		}
		const otherSession = sessions.find((s) => !s.is_current)
		if (!otherSession) throw new Error('no other session')
		await run('terminate_session', { session_id: otherSession.id })
		expect(await newest('session.terminated')).toMatchObject({
			...byOwner,
			detail: { command: 'terminate_session', session_id: String(otherSession.id) },
		})
		await run('terminate_all_other_sessions', {})
		expect(await newest('sessions.terminated')).toMatchObject(byOwner)
		await run('set_account_ttl', { days: 180 })
		expect(await newest('account.ttl_changed')).toMatchObject({
			...byOwner,
			detail: { command: 'set_account_ttl', days: 180 },
		})

		// A command that failed changed nothing: no line.
		const before = (await lines()).length
		const refused = await ws.command({ action: 'disable_2fa_password', userbot_id: c.userbotId })
		expect(refused.payload.type).toBe('disable_2fa_password_error')
		// A read changes nothing: no line either.
		await run('get_password_state', {})
		expect((await lines()).length).toBe(before)
		expect(JSON.stringify(await lines())).not.toContain(TWO_FA)
	})

	it('is declared by exactly the commands that change the account', () => {
		const audited = [...c.t.commands.values()]
			.filter((r) => r.command.audit)
			.map((r) => `${r.command.name}:${r.command.audit?.action}`)
			.sort()
		expect(audited).toEqual([
			'change_2fa_password:twofa.changed',
			'change_2fa_recovery_email:twofa.recovery_email_changed',
			'check_recovery_email_address_code:twofa.recovery_email_confirmed',
			'disable_2fa_password:twofa.disabled',
			'recover_password:twofa.recovered',
			'set_account_ttl:account.ttl_changed',
			'td_invoke:td.invoked',
			'terminate_all_other_sessions:sessions.terminated',
			'terminate_session:session.terminated',
			'transfer_chat_ownership:chat.ownership_transferred',
		])
	})

	it('records member changes: joined by invite, invited, invite revoked, status, grants, removal', async () => {
		const joined = (await lines()).find((l) => l.action === 'member.joined' && l.user_id === c.member.userId)
		expect(joined).toMatchObject({ target: `user:${c.member.userId}`, client: '127.0.0.1' })

		const invite = await c.call('POST', '/accounts/invites/', c.owner.access, {})
		const { id: inviteId, token } = (await invite.json()) as { id: number; token: string }
		expect(await newest('member.invited')).toMatchObject({
			user_id: c.owner.userId,
			target: `invite:${inviteId}`,
		})
		expect((await c.call('POST', `/accounts/invites/${inviteId}/revoke/`, c.owner.access)).status).toBe(200)
		expect(await newest('member.invite_revoked')).toMatchObject({ target: `invite:${inviteId}` })

		const m = c.member.userId
		expect(
			(await c.call('POST', `/accounts/members/${m}/status/`, c.owner.access, { status: 'on_leave' })).status,
		).toBe(200)
		expect(await newest('member.status_changed')).toMatchObject({
			user_id: c.owner.userId,
			target: `user:${m}`,
			detail: { status: 'on_leave' },
			client: '127.0.0.1',
		})
		await c.call('POST', `/accounts/members/${m}/status/`, c.owner.access, { status: 'active' })
		expect(
			(
				await c.call('POST', `/accounts/members/${m}/grants/`, c.owner.access, {
					permission: 'security.password',
				})
			).status,
		).toBe(201)
		expect(await newest('member.grant_added')).toMatchObject({
			target: `user:${m}`,
			detail: { permission: 'security.password' },
		})
		expect(
			(await c.call('DELETE', `/accounts/members/${m}/grants/security.password/`, c.owner.access)).status,
		).toBe(204)
		expect(await newest('member.grant_removed')).toMatchObject({
			target: `user:${m}`,
			detail: { permission: 'security.password' },
		})

		const leaving = await joinCompany(c.t, c.owner, `audit-leaving-${Date.now()}@example.com`)
		expect((await c.call('DELETE', `/accounts/members/${leaving.userId}/`, c.owner.access)).status).toBe(204)
		expect(await newest('member.removed')).toMatchObject({
			user_id: c.owner.userId,
			target: `user:${leaving.userId}`,
		})
		expect(JSON.stringify(await lines())).not.toContain(token)
	})

	it('records a password reset as the user’s own change, in their company, without the token', async () => {
		const resetting = await joinCompany(c.t, c.owner, `audit-reset-${Date.now()}@example.com`)
		const token = await c.t.auth.resetTokens.issue(resetting.userId, 3600)
		const newPassword = 'Reset-Horse-Audit-77'
		const res = await c.call('POST', '/accounts/reset-password/', undefined, {
			email: resetting.email,
			token,
			new_password: newPassword,
		})
		expect(res.status).toBe(200)
		expect(await newest('password.reset')).toMatchObject({
			user_id: resetting.userId,
			key_id: null,
			target: `user:${resetting.userId}`,
			client: '127.0.0.1',
		})
		const text = JSON.stringify(await lines())
		expect(text).not.toContain(token)
		expect(text).not.toContain(newPassword)
	})

	it('records webhook changes, naming the API key that made one and never the secrets', async () => {
		const hookUrl = 'http://127.0.0.1:9/hook?token=url-secret-123'
		const made = await c.call('POST', '/api/webhooks/', c.owner.access, { url: hookUrl })
		expect(made.status).toBe(201)
		const hook = (await made.json()) as { id: number; secret: string }
		expect(await newest('webhook.created')).toMatchObject({
			user_id: c.owner.userId,
			key_id: null,
			target: `webhook:${hook.id}`,
		})
		expect(
			(
				await c.call('PATCH', `/api/webhooks/${hook.id}/`, c.owner.access, {
					enabled: false,
					description: 'x',
				})
			).status,
		).toBe(200)
		expect(await newest('webhook.updated')).toMatchObject({
			target: `webhook:${hook.id}`,
			detail: { fields: 'description,enabled' },
		})
		const rotated = await c.call('POST', `/api/webhooks/${hook.id}/rotate-secret/`, c.owner.access)
		expect(rotated.status).toBe(200)
		const { secret } = (await rotated.json()) as { secret: string }
		expect(await newest('webhook.secret_rotated')).toMatchObject({ target: `webhook:${hook.id}` })

		const key = await c.call('POST', '/api/keys/', c.owner.access, { name: 'hooks', webhooks: true })
		const { id: keyId, key: apiKey } = (await key.json()) as { id: number; key: string }
		const removed = await fetch(`${c.t.url}/api/webhooks/${hook.id}/`, {
			method: 'DELETE',
			headers: { 'x-api-key': apiKey },
		})
		expect(removed.status).toBe(204)
		expect(await newest('webhook.deleted')).toMatchObject({
			user_id: c.owner.userId,
			key_id: keyId,
			target: `webhook:${hook.id}`,
		})
		const text = JSON.stringify(await lines())
		for (const s of [hook.secret, secret, apiKey, 'url-secret-123']) expect(text).not.toContain(s)
	})

	it('records a userbot created and deleted, by a user and through an API key, and a failed create not at all', async () => {
		const made = await c.call('POST', '/api/userbots/', c.owner.access, { name: 'Audited bot' })
		expect(made.status).toBe(201)
		const { id } = (await made.json()) as { id: number }
		expect(await newest('userbot.created')).toMatchObject({
			user_id: c.owner.userId,
			key_id: null,
			target: `userbot:${id}`,
			detail: { name: 'Audited bot', proxy: null },
			client: '127.0.0.1',
		})
		const key = await c.call('POST', '/api/keys/', c.owner.access, { name: 'bots', groups: ['userbots'] })
		const { id: keyId, key: apiKey } = (await key.json()) as { id: number; key: string }
		const removed = await fetch(`${c.t.url}/api/userbots/${id}/`, {
			method: 'DELETE',
			headers: { 'x-api-key': apiKey },
		})
		expect(removed.status).toBe(204)
		expect(await newest('userbot.deleted')).toMatchObject({
			user_id: c.owner.userId,
			key_id: keyId,
			target: `userbot:${id}`,
			detail: { name: 'Audited bot' },
			client: '127.0.0.1',
		})
		// Deleted once: a second DELETE finds nothing and writes nothing.
		const count = (await lines()).filter((l) => l.action === 'userbot.deleted').length
		expect((await c.call('DELETE', `/api/userbots/${id}/`, c.owner.access)).status).toBe(404)
		// A member may not create one: refused, and no line.
		const before = (await lines()).length
		expect((await c.call('POST', '/api/userbots/', c.member.access, { name: 'nope' })).status).toBe(403)
		const after = await lines()
		expect(after.length).toBe(before)
		expect(after.filter((l) => l.action === 'userbot.deleted').length).toBe(count)
		expect(JSON.stringify(after)).not.toContain(apiKey)
	})

	it('shows another company none of it, and refuses a member', async () => {
		const stranger = await registerUser(c.t, `audit-stranger-${Date.now()}@example.com`)
		const theirs = await lines(stranger.access)
		expect(theirs).toEqual([])
		expect((await c.call('GET', '/api/audit/', c.member.access)).status).toBe(403)
		// And the owner's own log holds nothing of the stranger's company.
		expect((await lines()).some((l) => l.user_id === stranger.userId)).toBe(false)
	})

	it('words a page size or a cursor out of range as DRF does, and a value that is no integer apart', async () => {
		const answer = async (query: string) => {
			const res = await c.call('GET', `/api/audit/?${query}`, c.owner.access)
			return { query, status: res.status, body: await res.json() }
		}
		const cases: Array<[string, Record<string, string[]>]> = [
			['limit=100000', { limit: ['Ensure this value is less than or equal to 100.'] }],
			['limit=101', { limit: ['Ensure this value is less than or equal to 100.'] }],
			['limit=100000000000000000000', { limit: ['Ensure this value is less than or equal to 100.'] }],
			['limit=0', { limit: ['Ensure this value is greater than or equal to 1.'] }],
			['limit=-3', { limit: ['Ensure this value is greater than or equal to 1.'] }],
			['limit=ten', { limit: ['A valid integer is required.'] }],
			['limit=2.5', { limit: ['A valid integer is required.'] }],
			['limit=', { limit: ['A valid integer is required.'] }],
			[`limit=${'9'.repeat(1001)}`, { limit: ['String value too large.'] }],
			['before=0', { before: ['Ensure this value is greater than or equal to 1.'] }],
			[
				'before=9007199254740992',
				{ before: ['Ensure this value is less than or equal to 9007199254740991.'] },
			],
		]
		for (const [query, errors] of cases)
			expect(await answer(query)).toEqual({ query, status: 400, body: errors })
		// In range, as DRF reads an integer (a sign, blanks, a `.0`): a page of that size.
		for (const query of ['limit=2', 'limit=%2B2', 'limit=%202%20', 'limit=2.0']) {
			const { status, body } = await answer(query)
			expect({ query, status, size: (body as unknown[]).length }).toEqual({ query, status: 200, size: 2 })
		}
	})
})
