import type * as Td from 'tdlib-types'
import { CommandError, defineCommand, fields } from 'userbot-gateway/plugin'
import { MessagesErrors as E } from './errors'
import { NEW_MESSAGE_UPDATES, repliedTo, timeoutField, WAITS, watchMessages } from './message-waits'
import { SendMessageInput, sendMessage } from './send-message'
import { SENT_UPDATES } from './wait-sent'

/** send_message's fields but `wait_sent` (always true here), and how long to wait for the answer. */
const { wait_sent: _waitSent, ...SEND_FIELDS } = SendMessageInput.entries
export const SendAndWaitInput = fields({ ...SEND_FIELDS, timeout_s: timeoutField })

/** A chat where every incoming message is the other side's answer; in a group only a reply is. */
const ONE_TO_ONE = new Set(['chatTypePrivate', 'chatTypeSecret'])

/**
 * `send_and_wait`: send_message's own run with `wait_sent` (so the message has its final id), then
 * the answer: the first incoming message of the chat that replies to it, or, in a private or secret
 * chat, the first incoming message at all (docs/command-groups.md#conversations). Messages are
 * listened for from before the send, so an answer that comes before the send's own confirmation is
 * kept. Past `timeout_s`, `timed out` with `{sent}` as the partial result: the message went.
 */
export const sendAndWait = defineCommand({
	name: 'send_and_wait',
	policy: { action: 'write' },
	summary: "Sends a message as send_message does, then waits up to timeout_s for the other side's answer.",
	result: {
		description:
			"`sent`: TDLib's message (or messages, for an album) once Telegram has it; `reply`: TDLib's message that answered it.",
		schema: {
			type: 'object',
			properties: {
				sent: { type: 'object', description: "TDLib's message, or messages for an album" },
				reply: { type: 'object', description: "TDLib's message" },
			},
			required: ['sent', 'reply'],
		},
	},
	errors: [...(sendMessage.errors ?? []), E.TIMED_OUT],
	examples: [
		{ chat_id: 1001, text: 'Are you there?', timeout_s: 5 },
		{ chat_id: -1000000003001, text: 'Who is in today?', timeout_s: 300 },
		{ username: 'dave', text: 'Ping', timeout_s: 30 },
	],
	flood: 'send',
	methods: sendMessage.methods,
	input: SendAndWaitInput,
	updates: [...SENT_UPDATES, ...NEW_MESSAGE_UPDATES],
	waits: WAITS,
	run: async (input, ctx) => {
		const watch = watchMessages(ctx)
		try {
			const sent = (await sendMessage.run({ ...input, wait_sent: true }, ctx)) as Td.message | Td.messages
			const messages = sent._ === 'message' ? [sent] : sent.messages.filter((m): m is Td.message => !!m)
			const chatId = messages[0]?.chat_id ?? 0
			const ids = new Set(messages.map((m) => m.id))
			const chat = await ctx.invoke({ _: 'getChat', chat_id: chatId })
			const anyIncoming = ONE_TO_ONE.has(chat.type._)
			const answers = (m: Td.message) =>
				m.chat_id === chatId && !m.is_outgoing && (anyIncoming || ids.has(repliedTo(m) ?? 0))
			try {
				return { sent, reply: await watch.next(answers, input.timeout_s ?? WAITS.default) }
			} catch (err) {
				throw err instanceof CommandError ? new CommandError(err.message, { sent }) : err
			}
		} finally {
			watch.stop()
		}
	},
})
