import { afterAll, describe, expect, it } from 'bun:test'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { userbot } from '../../../db/schema'
import { openDatabaseKey } from '../../../src/common/util/key-crypto'
import {
	memberFor,
	openSocket,
	removeDir,
	SECOND_FACTOR,
	type Server,
	serve,
	signUp,
	tempDir,
} from './support'

const READY = 'authorizationStateReady'
const dirs: string[] = []
const servers: Server[] = []
afterAll(async () => {
	for (const s of servers) await s.halt().catch(() => undefined)
	for (const d of dirs) removeDir(d)
})

describe('userbot lifecycle on the emulator', () => {
	it('creates, logs in with 2FA, runs a command, survives a restart, and is deleted', async () => {
		const dataDir = tempDir()
		dirs.push(dataDir)
		let server = await serve(dataDir)
		servers.push(server)
		const owner = await signUp(server.url)
		const ws = await openSocket(server.url, owner.access)

		const created = await owner.call('POST', '/api/userbots/', { name: 'Carol' })
		expect(created.status).toBe(201)
		const { id, authorization_state } = (await created.json()) as { id: number; authorization_state: string }
		expect(authorization_state).toBe('authorizationStateWaitPhoneNumber')

		const phone = await owner.call('POST', `/api/userbots/${id}/phone/`, {
			phone_number: `+${SECOND_FACTOR.phone}`,
		})
		expect(phone.status).toBe(200)
		expect(await phone.json()).toEqual({ authorization_state: 'authorizationStateWaitCode' })

		const wrongCode = await owner.call('POST', `/api/userbots/${id}/code/`, { code: '12345' })
		expect(wrongCode.status).toBe(400)
		expect(((await wrongCode.json()) as { detail: string }).detail).toBe('PHONE_CODE_INVALID')

		const code = await owner.call('POST', `/api/userbots/${id}/code/`, { code: SECOND_FACTOR.code })
		expect(await code.json()).toEqual({ authorization_state: 'authorizationStateWaitPassword' })

		const wrongPassword = await owner.call('POST', `/api/userbots/${id}/password/`, { password: 'nope' })
		expect(wrongPassword.status).toBe(400)
		const wrongBody = (await wrongPassword.json()) as { detail: string }
		expect(wrongBody.detail).toBe('PASSWORD_HASH_INVALID')
		expect(JSON.stringify(wrongBody)).not.toContain('nope')

		const password = await owner.call('POST', `/api/userbots/${id}/password/`, {
			password: SECOND_FACTOR.password,
		})
		expect(password.status).toBe(200)
		expect(await password.json()).toEqual({ authorization_state: READY })

		// The states came over the WebSocket, in order.
		const states: string[] = []
		while (states.at(-1) !== READY) {
			const u = await ws.next((m) => m.payload.type === 'authorization_state' && m.userbot_id === id)
			states.push(String(u.payload.result?.authorization_state))
		}
		expect(states.filter((s) => s !== 'authorizationStateWaitTdlibParameters')).toEqual([
			'authorizationStateWaitPhoneNumber',
			'authorizationStateWaitCode',
			'authorizationStateWaitPassword',
			READY,
		])

		const list = await owner.call('GET', '/api/userbots/')
		expect(await list.json()).toEqual([
			// `status`: the account's health (issue 27, docs/flood-and-health.md); `proxy`: none (issue 28).
			{
				id,
				name: 'Carol',
				phone_number: SECOND_FACTOR.phone,
				authorization_state: READY,
				status: 'active',
				proxy: null,
			},
		])

		const before = await ws.command('get_default_message_auto_delete_time', id)
		expect(before.type).toBe('get_default_message_auto_delete_time')
		ws.close()

		// The database key is sealed at rest and opens back to what TDLib was given.
		const [row] = await server.ctx.db.select().from(userbot).where(eq(userbot.id, id))
		expect(row?.encryptionKey.startsWith('v1.')).toBe(true)
		const key = await openDatabaseKey(server.config.secrets.dataKey, id, row?.encryptionKey ?? '')
		expect(Buffer.from(key, 'base64').byteLength).toBe(32)
		expect(row?.encryptionKey).not.toContain(key)

		// Restart: a new app on the same data folder and database; no new log-in.
		await server.halt()
		server = await serve(dataDir)
		servers.push(server)
		const again = await memberFor(server.url, owner.email)
		const got = await again.call('GET', `/api/userbots/${id}/`)
		expect(await got.json()).toEqual({
			id,
			name: 'Carol',
			phone_number: SECOND_FACTOR.phone,
			authorization_state: READY,
			status: 'active',
			proxy: null,
		})
		const ws2 = await openSocket(server.url, again.access)
		const after = await ws2.command('get_default_message_auto_delete_time', id)
		expect(after.type).toBe('get_default_message_auto_delete_time')

		const deleted = await again.call('DELETE', `/api/userbots/${id}/`)
		expect(deleted.status).toBe(204)
		expect((await again.call('GET', `/api/userbots/${id}/`)).status).toBe(404)
		expect(await (await again.call('GET', '/api/userbots/')).json()).toEqual([])
		const gone = await ws2.command('get_default_message_auto_delete_time', id)
		expect(gone.error).toBe('userbot not found')
		const gone2 = await ws2.command('userbot_get_state', id)
		expect(gone2.error).toBe('userbot not found')
		// Logged out of "Telegram", not merely closed: the client went through LoggingOut.
		const loggingOut = await ws2.next(
			(u) =>
				u.userbot_id === id &&
				u.payload.type === 'authorization_state' &&
				u.payload.result?.authorization_state === 'authorizationStateLoggingOut',
			3_000,
		)
		expect(loggingOut.payload.userbot_id).toBe(id)
		ws2.close()

		const [audit] = await server.ctx.db.select().from(userbot).where(eq(userbot.id, id))
		expect(audit?.deletedAt).toBeNumber()
		expect(audit?.deletedBy).toBeNumber()
		expect(existsSync(join(dataDir, 'tdlib', String(id)))).toBe(false)
		expect(server.ctx.runtime?.authorizationState(id)).toBeUndefined()
	})
})
