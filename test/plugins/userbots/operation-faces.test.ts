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
	openSocket,
	PLAIN_ACCOUNT,
	type Socket,
	serveFresh,
	signUp,
} from './support'

/**
 * One operation, two faces (docs/plugins.md#operations): the card's actions and the log-in steps are
 * each one definition served as a REST route and as a WebSocket command. The command faces of rename,
 * log out and restart are new; both faces of one operation share the input rules (worded for each),
 * the policy entry, the handler and its refusals.
 */
let server: FreshServer
let owner: Member
let member: Member
let ownerWs: Socket
let memberWs: Socket

const READY = 'authorizationStateReady'
const WAIT_PHONE = 'authorizationStateWaitPhoneNumber'

beforeAll(async () => {
	server = await serveFresh()
	owner = await signUp(server.url, 'owner')
	const inviter = { email: owner.email, password: '', userId: 0, companyId: 0, access: owner.access }
	const joined = await joinCompany(server, inviter, `member.${Date.now().toString(36)}@example.com`)
	member = await memberFor(server.url, joined.email, joined.password)
	ownerWs = await openSocket(server.url, owner.access)
	memberWs = await openSocket(server.url, member.access)
})

afterAll(async () => {
	ownerWs.close()
	memberWs.close()
	await server.dispose()
})

const view = async (id: number) =>
	(await (await owner.call('GET', `/api/userbots/${id}/`)).json()) as {
		name: string
		authorization_state: string
	}

const audited = async (id: number) =>
	(
		await server.ctx.db
			.select({ action: auditLog.action })
			.from(auditLog)
			.where(eq(auditLog.target, `userbot:${id}`))
	).map((r) => r.action)

describe('the card’s actions as commands', () => {
	it('userbot_rename renames as PATCH does: trimmed, audited, its view answered', async () => {
		const id = await createUserbot(owner)
		const reply = await ownerWs.command('userbot_rename', id, { name: '  Support desk  ' })
		expect(reply.type).toBe('userbot_rename')
		expect(reply.result).toMatchObject({ id, name: 'Support desk', authorization_state: WAIT_PHONE })
		expect((await view(id)).name).toBe('Support desk')
		expect(await audited(id)).toContain('userbot.renamed')
	})

	it('words the same rules for each face, never echoing the value', async () => {
		const id = await createUserbot(owner)
		const long = `secret-${'x'.repeat(200)}`
		const cases = [
			[
				{ name: long },
				'Ensure this field has no more than 128 characters.',
				'name must be at most 128 characters',
			],
			[
				{ name: 'bad\u0007name' },
				'Control characters are not allowed.',
				'name must not contain control characters',
			],
			[{}, 'This field is required.', 'name is required'],
		] as const
		for (const [body, rest, wire] of cases) {
			const res = await owner.call('PATCH', `/api/userbots/${id}/`, body)
			expect(res.status).toBe(400)
			expect(await res.json()).toEqual({ name: [rest] })
			const reply = await ownerWs.command('userbot_rename', id, body)
			expect(reply).toMatchObject({ type: 'userbot_rename_error', error: wire })
			expect(JSON.stringify(reply)).not.toContain('secret-')
		}
		expect((await view(id)).name).not.toContain('secret-')
	})

	it('takes userbots.manage on both faces: a member without the grant is refused by each', async () => {
		const id = await createUserbot(owner)
		const res = await member.call('PATCH', `/api/userbots/${id}/`, { name: 'Mine now' })
		expect(res.status).toBe(403)
		for (const action of ['userbot_rename', 'userbot_restart', 'userbot_log_out']) {
			const reply = await memberWs.command(action, id, { name: 'Mine now' })
			expect(reply).toMatchObject({ type: `${action}_error`, error: 'permission denied' })
		}
		expect((await view(id)).name).not.toBe('Mine now')
	})

	it('userbot_restart brings the client back logged in; userbot_log_out logs it out', async () => {
		const id = await createUserbot(owner)
		await logInOverRest(owner, id)
		const restarted = await ownerWs.command('userbot_restart', id)
		expect(restarted).toMatchObject({ type: 'userbot_restart', result: { authorization_state: READY } })
		expect(await audited(id)).toContain('userbot.restarted')
		const ok = await ownerWs.command('get_default_message_auto_delete_time', id)
		expect(ok.type).toBe('get_default_message_auto_delete_time')

		const out = await ownerWs.command('userbot_log_out', id)
		expect(out).toMatchObject({ type: 'userbot_log_out', result: { authorization_state: WAIT_PHONE } })
		expect((await view(id)).authorization_state).toBe(WAIT_PHONE)
		// The same refusal on each face: nothing to log out now.
		const again = await ownerWs.command('userbot_log_out', id)
		const rest = await owner.call('POST', `/api/userbots/${id}/logout/`)
		expect(rest.status).toBe(400)
		const detail = ((await rest.json()) as { detail: string }).detail
		expect(again).toMatchObject({ type: 'userbot_log_out_error', error: detail })
	})
})

describe('a log-in step’s two faces', () => {
	it('answer one refusal, as REST’s detail and as the command’s error', async () => {
		const id = await createUserbot(owner)
		const rest = await owner.call('POST', `/api/userbots/${id}/code/`, { code: PLAIN_ACCOUNT.code })
		expect(rest.status).toBe(400)
		const { detail } = (await rest.json()) as { detail: string }
		expect(detail).toContain('not waiting for a code')
		const reply = await ownerWs.command('userbot_submit_code', id, { code: PLAIN_ACCOUNT.code })
		expect(reply).toMatchObject({ type: 'userbot_submit_code_error', error: detail })
	})
})
