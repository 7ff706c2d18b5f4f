import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import {
	type Member,
	openSocket,
	PLAIN_ACCOUNT,
	removeDir,
	type Server,
	serve,
	signUp,
	tempDir,
} from '../plugins/userbots/support'

// Real TDLib, told `networkTypeNone` before anything else: nothing leaves this machine.

let server: Server
let dataDir: string
let owner: Member

beforeAll(async () => {
	dataDir = tempDir()
	server = await serve(dataDir, {
		TDLIB_BACKEND: 'tdlib',
		TELEGRAM_API_ID: '1',
		TELEGRAM_API_HASH: '0123456789abcdef0123456789abcdef',
		COMMAND_TIMEOUT: '1500',
	})
	owner = await signUp(server.url)
})

afterAll(async () => {
	await server.halt()
	removeDir(dataDir)
})

describe('a userbot on real TDLib, offline', () => {
	it('starts, answers a phone number with a clear timeout, and stays usable', async () => {
		const created = await owner.call('POST', '/api/userbots/', { name: 'offline' })
		expect(created.status).toBe(201)
		const { id, authorization_state } = (await created.json()) as { id: number; authorization_state: string }
		expect(authorization_state).toBe('authorizationStateWaitPhoneNumber')
		expect(existsSync(join(dataDir, 'tdlib', String(id), 'db'))).toBe(true)

		// Not logged in to Telegram: a command of a group is refused before it reaches TDLib.
		const early = await openSocket(server.url, owner.access)
		const refused = await early.command('get_default_message_auto_delete_time', id)
		expect(refused.type).toBe('get_default_message_auto_delete_time_error')
		expect(refused.error).toBe('userbot is not authorized')
		early.close()

		const phone = await owner.call('POST', `/api/userbots/${id}/phone/`, {
			phone_number: PLAIN_ACCOUNT.phone,
		})
		expect(phone.status).toBe(504)
		const body = (await phone.json()) as { detail: string; code: string }
		expect(body.code).toBe('timeout')
		expect(body.detail).toContain('network')

		const got = await owner.call('GET', `/api/userbots/${id}/`)
		expect(got.status).toBe(200)
		expect(((await got.json()) as { authorization_state: string }).authorization_state).toBe(
			'authorizationStateWaitPhoneNumber',
		)

		// The same over the WebSocket; a second attempt cancels the first inside TDLib, harmlessly.
		const ws = await openSocket(server.url, owner.access)
		const again = await ws.command('userbot_submit_phone', id, { phone_number: PLAIN_ACCOUNT.phone })
		expect(again.error).toBe('timeout')
		const state = await ws.command('userbot_get_state', id)
		expect(state.result).toEqual({ authorization_state: 'authorizationStateWaitPhoneNumber' })
		ws.close()

		const deleted = await owner.call('DELETE', `/api/userbots/${id}/`)
		expect(deleted.status).toBe(204)
		expect(existsSync(join(dataDir, 'tdlib', String(id)))).toBe(false)
	})
})
