import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import {
	createUserbot,
	type FreshServer,
	type Member,
	openSocket,
	PLAIN_ACCOUNT,
	type Socket,
	serveFresh,
	signUp,
} from './support'

let server: FreshServer
let owner: Member
let ws: Socket

beforeAll(async () => {
	server = await serveFresh()
	owner = await signUp(server.url)
	ws = await openSocket(server.url, owner.access)
})

afterAll(async () => {
	ws.close()
	await server.dispose()
})

const create = () => createUserbot(owner)

describe('log-in steps as WebSocket commands', () => {
	it('logs in with phone and code, and a command works before and after', async () => {
		const id = await create()
		expect(await ws.command('userbot_get_state', id)).toMatchObject({
			type: 'userbot_get_state',
			result: { authorization_state: 'authorizationStateWaitPhoneNumber' },
		})
		const notYet = await ws.command('get_default_message_auto_delete_time', id)
		expect(notYet.error).toBe('userbot is not authorized')

		const phone = await ws.command('userbot_submit_phone', id, { phone_number: PLAIN_ACCOUNT.phone })
		expect(phone.result).toEqual({ authorization_state: 'authorizationStateWaitCode' })
		const wrong = await ws.command('userbot_submit_code', id, { code: '99999' })
		expect(wrong).toMatchObject({ type: 'userbot_submit_code_error', error: 'PHONE_CODE_INVALID' })
		const code = await ws.command('userbot_submit_code', id, { code: PLAIN_ACCOUNT.code })
		expect(code.result).toEqual({ authorization_state: 'authorizationStateReady' })

		const ok = await ws.command('get_default_message_auto_delete_time', id)
		expect(ok.type).toBe('get_default_message_auto_delete_time')
		const again = await ws.command('userbot_submit_code', id, { code: PLAIN_ACCOUNT.code })
		expect(again.error).toBe('userbot is not waiting for a code (state: authorizationStateReady)')
	})

	it('pushes each state with what the next step needs, never a secret', async () => {
		const id = await create()
		await ws.command('userbot_submit_phone', id, { phone_number: PLAIN_ACCOUNT.phone })
		const waitCode = await ws.next(
			(u) => u.userbot_id === id && u.payload.result?.authorization_state === 'authorizationStateWaitCode',
		)
		expect(waitCode).toMatchObject({
			type: 'chat_update',
			userbot_id: id,
			payload: { userbot_id: id, type: 'authorization_state' },
		})
		expect(waitCode.payload.result?.code_length).toBe(5)
	})

	it('gives a QR link', async () => {
		const id = await create()
		const qr = await ws.command('userbot_request_qr', id)
		expect(String(qr.result?.link)).toMatch(/^tg:\/\/login\?token=/)
		const event = await ws.next(
			(u) =>
				u.userbot_id === id &&
				u.payload.result?.authorization_state === 'authorizationStateWaitOtherDeviceConfirmation',
		)
		expect(event.payload.result?.link).toBe(qr.result?.link)
		const rest = await owner.call('POST', `/api/userbots/${id}/qr/`)
		expect(rest.status).toBe(200)
		expect(((await rest.json()) as { link: string }).link).toMatch(/^tg:\/\/login\?token=/)
	})

	it('checks the fields of each step', async () => {
		const id = await create()
		expect((await ws.command('userbot_submit_phone', id)).error).toBe('phone_number is required')
		expect((await ws.command('userbot_submit_phone', id, { phone_number: 5 })).error).toBe(
			'phone_number must be a string',
		)
		expect((await ws.command('userbot_submit_phone', id, { phone_number: 'call me' })).error).toBe(
			'phone_number is not a valid phone number',
		)
		expect((await ws.command('userbot_submit_code', id)).error).toBe('code is required')
		expect((await ws.command('userbot_submit_password', id, { password: '' })).error).toBe(
			'password must not be empty',
		)
		const rest = await owner.call('POST', `/api/userbots/${id}/phone/`, {})
		expect(rest.status).toBe(400)
		expect(await rest.json()).toEqual({ phone_number: ['This field is required.'] })
		const bad = await owner.call('POST', `/api/userbots/${id}/phone/`, '{nope')
		expect(bad.status).toBe(400)
		expect(((await bad.json()) as { detail: string }).detail).toStartWith('JSON parse error')
		const notObject = await owner.call('POST', `/api/userbots/${id}/code/`, '[]')
		expect(await notObject.json()).toEqual({
			non_field_errors: ['Invalid data. Expected a dictionary, but got list.'],
		})
		const password = await owner.call('POST', `/api/userbots/${id}/password/`, { password: 'hunter2' })
		expect(password.status).toBe(400)
		const body = await password.text()
		expect(body).toContain('wrong_state')
		expect(body).not.toContain('hunter2')
	})

	it('registers a new account for an unknown test phone', async () => {
		const id = await create()
		await owner.call('POST', `/api/userbots/${id}/phone/`, { phone_number: '9996627777' })
		const code = await owner.call('POST', `/api/userbots/${id}/code/`, { code: '22222' })
		expect(await code.json()).toEqual({ authorization_state: 'authorizationStateWaitRegistration' })
		const reg = await ws.command('userbot_register', id, { first_name: 'Newt' })
		expect(reg.result).toEqual({ authorization_state: 'authorizationStateReady' })
	})
})
