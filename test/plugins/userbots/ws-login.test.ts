import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { emulatorRequest } from '../../../src/emulator'
import {
	createUserbot,
	type FreshServer,
	type Member,
	openSocket,
	PLAIN_ACCOUNT,
	type Socket,
	serveFresh,
	signUp,
	until,
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
			'password is required',
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

	it('starts over with another number, then with a QR code ("wrong number")', async () => {
		const id = await create()
		const first = await owner.call('POST', `/api/userbots/${id}/phone/`, { phone_number: '9996621234' })
		expect(await first.json()).toEqual({ authorization_state: 'authorizationStateWaitCode' })
		const second = await owner.call('POST', `/api/userbots/${id}/phone/`, { phone_number: '9996631111' })
		expect(second.status).toBe(200)
		expect(await second.json()).toEqual({ authorization_state: 'authorizationStateWaitCode' })
		const qr = await owner.call('POST', `/api/userbots/${id}/qr/`)
		expect(qr.status).toBe(200)
		expect(((await qr.json()) as { link: string }).link).toMatch(/^tg:\/\/login\?token=/)
		// While the QR code waits, TDLib takes no phone number.
		const third = await owner.call('POST', `/api/userbots/${id}/phone/`, { phone_number: '9996621234' })
		expect(third.status).toBe(400)
		expect(((await third.json()) as { code: string }).code).toBe('wrong_state')
	})

	it('fills phone_number from the account when a QR log-in finishes, over a number typed before', async () => {
		const runtime = server.ctx.runtime
		if (!runtime) throw new Error('no runtime')
		const phoneOf = async (id: number) =>
			((await (await owner.call('GET', `/api/userbots/${id}/`)).json()) as { phone_number: string | null })
				.phone_number
		const typed = await create()
		await owner.call('POST', `/api/userbots/${typed}/phone/`, { phone_number: PLAIN_ACCOUNT.phone })
		expect(await phoneOf(typed)).toBe(PLAIN_ACCOUNT.phone)
		await owner.call('POST', `/api/userbots/${typed}/qr/`)
		await runtime.invoke(typed, emulatorRequest({ _: 'emulatorConfirmQrCode', phone_number: '9996611111' }))
		await until(async () => (await phoneOf(typed)) === '9996611111', 3_000)

		const qrOnly = await create()
		await owner.call('POST', `/api/userbots/${qrOnly}/qr/`)
		expect(await phoneOf(qrOnly)).toBeNull()
		await runtime.invoke(qrOnly, emulatorRequest({ _: 'emulatorConfirmQrCode', phone_number: '9996614444' }))
		await until(async () => (await phoneOf(qrOnly)) === '9996614444', 3_000)
	})
})
