import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type * as Td from 'tdlib-types'
import * as v from 'valibot'
import { forwardMessage } from '../../../plugins/commands-messages/forward-message'
import { waitSent } from '../../../plugins/commands-messages/wait-sent'
import type { TdUpdate } from '../../../src/runtime/telegram/types'
import { CommandError } from '../../../src/server/commands/define'
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

describe('forward_message with wait_sent', () => {
	it('answers once every forwarded message is sent, with the final ids, which the chat then has', async () => {
		// Without wait_sent: TDLib's temporary messages, as before.
		const temp = await run('forward_message', {
			to_chat_ids: [ALICE],
			from_chat_id: ALICE,
			message_ids: [SHIFT],
		})
		const [tempTarget] = temp.payload.result as Array<{ messages: Message[] }>
		expect(tempTarget?.messages[0]?.sending_state).toEqual({ _: 'messageSendingStatePending', sending_id: 0 })

		const reply = await run('forward_message', {
			to_chat_ids: [ALICE],
			from_chat_id: ALICE,
			message_ids: [SHIFT, 2 * SHIFT],
			wait_sent: true,
		})
		expect(reply.payload.type).toBe('forward_message')
		const [target] = reply.payload.result as Array<{ to_chat_id: number; messages: Message[] }>
		expect(target?.to_chat_id).toBe(ALICE)
		expect(target?.messages.map((m) => [m.id % SHIFT, m.sending_state])).toEqual([
			[0, undefined],
			[0, undefined],
		])
		for (const m of target?.messages ?? []) {
			const got = await run('get_message', { chat_id: ALICE, message_id: m.id })
			expect((got.payload.result as Message).id).toBe(m.id)
		}
		expect(
			(
				await run('forward_message', {
					to_chat_ids: [ALICE],
					from_chat_id: ALICE,
					message_ids: [SHIFT],
					wait_sent: 'yes',
				})
			).payload.error,
		).toBe('wait_sent must be a boolean')
	})

	it('fails a target whose message Telegram refused (updateMessageSendFailed) as forward_message_error', async () => {
		const pending = (chat_id: number, id: number) => ({
			_: 'message',
			id,
			chat_id,
			sending_state: { _: 'messageSendingStatePending', sending_id: 0 },
		})
		let listener: ((u: TdUpdate) => void) | undefined
		const { ctx } = stubContext(
			(req) => {
				const chat = req.chat_id as number
				const messages = [pending(chat, 9 * SHIFT + 1), pending(chat, 9 * SHIFT + 2)]
				// Telegram's verdicts arrive on the next turn, after TDLib's answer.
				setImmediate(() => {
					listener?.({
						_: 'updateMessageSendSucceeded',
						message: { ...messages[0], id: 9 * SHIFT, sending_state: undefined },
						old_message_id: messages[0]!.id,
					} as unknown as TdUpdate)
					const error = { _: 'error', code: 400, message: chat === 20 ? 'CHAT_FORWARDS_RESTRICTED' : 'x' }
					const second =
						chat === 20
							? { _: 'updateMessageSendFailed', message: messages[1], old_message_id: messages[1]!.id, error }
							: {
									_: 'updateMessageSendSucceeded',
									message: { ...messages[1], id: 10 * SHIFT, sending_state: undefined },
									old_message_id: messages[1]!.id,
								}
					listener?.(second as unknown as TdUpdate)
				})
				return { _: 'messages', total_count: 2, messages }
			},
			{
				onUpdate: (fn) => {
					listener = fn
					return () => {
						listener = undefined
					}
				},
			},
		)
		const input = v.parse(forwardMessage.input, {
			to_chat_ids: [10, 20],
			from_chat_id: 3,
			message_ids: [1, 2],
			wait_sent: true,
		})
		const err = await forwardMessage.run(input, ctx).then(
			() => undefined,
			(e: unknown) => e,
		)
		expect(err).toBeInstanceOf(CommandError)
		expect((err as CommandError).message).toBe('CHAT_FORWARDS_RESTRICTED')
		expect((err as CommandError).result).toEqual([
			{
				to_chat_id: 10,
				messages: [expect.objectContaining({ id: 9 * SHIFT }), expect.objectContaining({ id: 10 * SHIFT })],
			},
			{
				to_chat_id: 20,
				messages: [expect.objectContaining({ id: 9 * SHIFT }), null],
				error: 'CHAT_FORWARDS_RESTRICTED',
			},
		])
		expect(listener).toBeUndefined()
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
