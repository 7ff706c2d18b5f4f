import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type * as Td from 'tdlib-types'
import { waitSent } from '../../../plugins/commands-messages/wait-sent'
import type { TdUpdate } from '../../../src/telegram/types'
import { stubContext } from '../../helpers-stub'
import { createMessagingFixture, type MessagingFixture, type WsClient } from '../../helpers-ws'

/** `wait_sent: true` over the real server: Bob's userbot sends to Alice (chat 1001) and waits. */
let f: MessagingFixture
let c: WsClient
beforeAll(async () => {
	f = await createMessagingFixture()
	c = await f.connect()
})
afterAll(() => f.stop())

const ALICE = 1001
const SHIFT = 2 ** 20
const run = (action: string, fields: Record<string, unknown> = {}) =>
	c.command({ action, userbot_id: f.userbotId, ...fields })
type Message = { id: number; chat_id: number; sending_state?: unknown; content: { text?: { text: string } } }

describe('wait_sent', () => {
	it('answers the final message, whose id edit_message then accepts (the temporary one it refuses)', async () => {
		const temp = (await run('send_message', { chat_id: ALICE, text: 'first draft' })).payload
			.result as Message
		expect(temp.sending_state).toEqual({ _: 'messageSendingStatePending', sending_id: 0 })
		const tempEdit = await run('edit_message', { chat_id: ALICE, message_id: temp.id, text: 'edited' })
		expect(tempEdit.payload.type).toBe('edit_message_error')

		const reply = await run('send_message', { chat_id: ALICE, text: 'for sure', wait_sent: true })
		expect(reply.payload.type).toBe('send_message')
		const sent = reply.payload.result as Message
		expect(sent.sending_state).toBeUndefined()
		expect(sent.id % SHIFT).toBe(0)
		expect(sent.content.text?.text).toBe('for sure')
		const edit = await run('edit_message', { chat_id: ALICE, message_id: sent.id, text: 'for sure (edited)' })
		expect(edit.payload.type).toBe('edit_message')
		expect((edit.payload.result as Message).id).toBe(sent.id)
	})

	it('works for reply_message and for an album', async () => {
		const reply = await run('reply_message', {
			chat_id: ALICE,
			reply_to_message_id: SHIFT,
			text: 'answered',
			wait_sent: true,
		})
		const message = reply.payload.result as Message & { reply_to?: { message_id: number } }
		expect([message.id % SHIFT, message.sending_state, message.reply_to?.message_id]).toEqual([
			0,
			undefined,
			SHIFT,
		])

		const album = await run('send_message', {
			chat_id: ALICE,
			media: [
				{ file: 'https://example.com/a.png', media_type: 'photo' },
				{ file: 'https://example.com/b.png', media_type: 'photo' },
			],
			wait_sent: true,
		})
		const { messages } = album.payload.result as { messages: Message[] }
		expect(messages.map((m) => [m.id % SHIFT, m.sending_state])).toEqual([
			[0, undefined],
			[0, undefined],
		])
	})

	it('answers the failure TDLib reports (updateMessageSendFailed) as the command’s error', async () => {
		const media = { file: 'https://photos.example.invalid/sunset.png', media_type: 'photo' }
		// Without wait_sent: the temporary message, as before; the failure comes only as an update.
		const temp = await run('send_message', { chat_id: ALICE, media })
		expect(temp.payload.type).toBe('send_message')
		const failed = await run('send_message', { chat_id: ALICE, media, wait_sent: true })
		expect(failed.payload.type).toBe('send_message_error')
		expect(failed.payload.error).toBe('WEBPAGE_CURL_FAILED')
		expect((await run('send_message', { chat_id: ALICE, text: 'x', wait_sent: 1 })).payload.error).toBe(
			'wait_sent must be a boolean',
		)
	})
})

describe('waitSent', () => {
	it('keeps an update that arrives before TDLib’s answer', async () => {
		const temp = {
			_: 'message',
			id: 5 * SHIFT + 1,
			chat_id: ALICE,
			sending_state: { _: 'messageSendingStatePending' },
		}
		const final = { _: 'message', id: 5 * SHIFT, chat_id: ALICE }
		let listener: ((u: TdUpdate) => void) | undefined
		const { ctx } = stubContext(() => temp, {
			onUpdate: (fn) => {
				listener = fn
				return () => {
					listener = undefined
				}
			},
		})
		const sent = await waitSent(ctx, async () => {
			const answer = (await ctx.invoke({ _: 'getMe' })) as unknown as Td.message
			// The update overtakes the answer.
			listener?.({
				_: 'updateMessageSendSucceeded',
				message: final,
				old_message_id: temp.id,
			} as unknown as TdUpdate)
			return answer
		})
		expect(sent).toEqual(final as unknown as Td.message)
		expect(listener).toBeUndefined()
	})
	it('stops waiting at the command’s deadline (its signal), and stops listening', async () => {
		const temp = {
			_: 'message',
			id: 7 * SHIFT + 1,
			chat_id: ALICE,
			sending_state: { _: 'messageSendingStatePending' },
		}
		const deadline = new AbortController()
		let listening = false
		const { ctx } = stubContext(() => temp, {
			signal: deadline.signal,
			onUpdate: () => {
				listening = true
				return () => {
					listening = false
				}
			},
		})
		const waiting = waitSent(ctx, async () => (await ctx.invoke({ _: 'getMe' })) as unknown as Td.message)
		// No update ever comes: only the deadline ends the wait (before or after TDLib's answer alike).
		expect(listening).toBe(true)
		deadline.abort(new Error('deadline'))
		await expect(waiting).rejects.toThrow('deadline')
		expect(listening).toBe(false)
	})
})
