import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { createMessagingFixture, type MessagingFixture, type WsClient } from '../../helpers-ws'

/** The group loads on its own: its commands answer, another group's are unknown. */
describe('commands-sessions alone', () => {
	let f: MessagingFixture
	let c: WsClient
	beforeAll(async () => {
		f = await createMessagingFixture({ PLUGINS: 'accounts,userbots,commands-sessions' })
		c = await f.connect()
	})
	afterAll(() => f.stop())

	it('answers its commands and not the messages group', async () => {
		const sessions = await c.command({ action: 'get_active_sessions', userbot_id: f.userbotId })
		expect(sessions.payload.type).toBe('get_active_sessions')
		const settings = await c.command({
			action: 'get_privacy_settings',
			userbot_id: f.userbotId,
			settings: 'newChatPrivacySettings',
		})
		expect(settings.payload).toMatchObject({
			type: 'get_privacy_settings',
			result: { newChatPrivacySettings: { _: 'newChatPrivacySettings' } },
		})
		const message = await c.command({
			action: 'send_message',
			userbot_id: f.userbotId,
			chat_id: 1001,
			text: 'hi',
		})
		expect(message.payload).toMatchObject({ type: 'send_message_error', error: 'unknown action' })
	})
})
