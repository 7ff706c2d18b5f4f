import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { connectWs } from '../helpers-ws'
import { removeDir, type Server, serve, signUp, tempDir } from '../plugins/userbots/support'

// Real TDLib, told `networkTypeNone` before anything else: nothing leaves this machine.

/**
 * Issue 11: real TDLib's updates take the same path as the emulator's. Offline, TDLib still sends
 * its authorization states and its options at start: kept in the userbot's stream before anyone
 * subscribes, and replayed to a subscriber from the beginning.
 */
let server: Server
let dataDir: string

beforeAll(async () => {
	dataDir = tempDir()
	server = await serve(dataDir, {
		TDLIB_BACKEND: 'tdlib',
		TELEGRAM_API_ID: '1',
		TELEGRAM_API_HASH: '0123456789abcdef0123456789abcdef',
		UPDATE_KINDS: 'updateAuthorizationState,updateOption,updateNewMessage',
	})
})

afterAll(async () => {
	await server.halt()
	removeDir(dataDir)
})

describe('updates from real TDLib, offline', () => {
	it('are kept from the client start and replayed to a subscriber, TDLib-shaped', async () => {
		const owner = await signUp(server.url)
		const created = await owner.call('POST', '/api/userbots/', { name: 'updates' })
		expect(created.status).toBe(201)
		const { id } = (await created.json()) as { id: number }

		const c = await connectWs(server.url, { bearer: owner.access })
		const reply = await c.command({ action: 'subscribe', userbot_id: id, after: 0 })
		expect(reply.payload.type).toBe('subscribe')
		const last = (reply.payload.result as { last_seq: number }).last_seq
		expect(last).toBeGreaterThan(2)
		const events = await c.take(
			() => c.received.filter((m) => (m as unknown as { type: string }).type === 'update').length >= last,
		)
		expect(events).toBeDefined()
		const updates = c.received
			.map(
				(m) => m as unknown as { type: string; seq: number; update: Record<string, unknown> & { _: string } },
			)
			.filter((m) => m.type === 'update')
		expect(updates.map((u) => u.seq)).toEqual(Array.from({ length: last }, (_, i) => i + 1))
		const states = updates
			.filter((u) => u.update._ === 'updateAuthorizationState')
			.map((u) => (u.update.authorization_state as { _: string })._)
		expect(states).toEqual(['authorizationStateWaitTdlibParameters', 'authorizationStateWaitPhoneNumber'])
		const version = updates.find((u) => u.update._ === 'updateOption' && u.update.name === 'version')
		expect(version?.update.value).toEqual({ _: 'optionValueString', value: '1.8.65' })
		c.close()
	})
})
