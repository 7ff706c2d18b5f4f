import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { accounts } from '../../plugins/accounts'
import { userbots } from '../../plugins/userbots'
import { definePlugin } from '../../src/server/plugin/define'
import { getTestInstance } from '../helpers'
import { createMessagingFixture, type MessagingFixture } from '../helpers-ws'

/**
 * Whether an account is ready is the state owner's answer (plugins/userbots/lifecycle/states.ts), not
 * the runtime's cache: the REST view, the pushes and the commands say the same.
 */
const READY = 'authorizationStateReady'
const COMMAND = 'get_default_message_auto_delete_time'

let f: MessagingFixture

beforeAll(async () => {
	f = await createMessagingFixture()
})
afterAll(() => f.stop())

describe('the gateway asks the state owner whether an account is ready', () => {
	it('refuses a command once the owner heard the account log out, though the runtime still says ready', async () => {
		const c = await f.connect()
		const runtime = f.t.ctx.runtime!
		const before = await c.command({ action: COMMAND, userbot_id: f.userbotId })
		expect(before.payload.type).toBe(COMMAND)

		const out = await fetch(`${f.t.url}/api/userbots/${f.userbotId}/logout/`, {
			method: 'POST',
			headers: { authorization: `Bearer ${f.alice.access}` },
		})
		expect(out.status).toBeLessThan(300)
		// The owner records a state before it pushes it: once the push is here, the owner knows.
		const pushed = await c.take((m) => {
			const result = m.payload.result as { authorization_state?: string } | undefined
			return m.payload.type === 'authorization_state' && result?.authorization_state !== READY
		})
		expect(pushed.userbot_id).toBe(f.userbotId)

		// The runtime's cached value lags (as a remote runtime's may): it still says ready.
		const cached = runtime.authorizationState
		runtime.authorizationState = () => READY
		try {
			const refused = await c.command({ action: COMMAND, userbot_id: f.userbotId })
			expect(refused.payload).toMatchObject({ type: `${COMMAND}_error`, error: 'userbot is not authorized' })
		} finally {
			runtime.authorizationState = cached
		}
	})

	it('has one owner: a second one registered stops the start', async () => {
		const second = definePlugin({
			id: 'second-owner',
			build(ctx) {
				ctx.registerStates({ authorizationState: () => READY })
				return null
			},
		})
		await expect(getTestInstance({}, { plugins: [accounts(), userbots(), second] })).rejects.toThrow(
			'one owner',
		)
	})
})
