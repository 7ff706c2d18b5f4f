import type * as Td from 'tdlib-types'
import { defineCommand, fields, optionalInt, requiredInt } from 'userbot-gateway/plugin'
import type * as v from 'valibot'
import { MessagesErrors as E } from './errors'
import { NEW_MESSAGE_UPDATES, repliedTo, senderOf, timeoutField, WAITS, watchMessages } from './message-waits'

export const WaitForMessageInput = fields({
	chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
	sender_id: optionalInt('sender_id'),
	reply_to_message_id: optionalInt('reply_to_message_id'),
	timeout_s: timeoutField,
})
type Input = v.InferOutput<typeof WaitForMessageInput>

/** Whether `message` is one the frame waits for: in its chat, from its sender, replying to its message. */
const matches = (input: Input) => (message: Td.message) =>
	message.chat_id === input.chat_id &&
	(input.sender_id === undefined || senderOf(message) === input.sender_id) &&
	(input.reply_to_message_id === undefined || repliedTo(message) === input.reply_to_message_id)

/**
 * `wait_for_message`: the first new message of the chat from now on that matches (any sender,
 * incoming or sent from another device of the account; `sender_id` and `reply_to_message_id`
 * narrow it), or `timed out` after `timeout_s` (docs/command-groups.md#conversations). It listens
 * to `updateNewMessage`, and asks TDLib only for the chat (`getChat`: a chat that is none is TDLib's
 * `Chat not found` at once, and a user's id opens their private chat, as chat_id does everywhere).
 */
export const waitForMessage = defineCommand({
	name: 'wait_for_message',
	policy: { action: 'read' },
	summary:
		'Waits for the next new message of a chat (from a sender, replying to a message), up to timeout_s.',
	result: { description: "TDLib's message: the first new message that matched.", tdlib: 'message' },
	errors: [E.TIMED_OUT],
	examples: [
		{ chat_id: 1001, timeout_s: 5 },
		{ chat_id: 1001, sender_id: 1001, timeout_s: 120 },
		{ chat_id: -1000000003001, reply_to_message_id: 1048576, timeout_s: 300 },
	],
	methods: ['getChat', 'createPrivateChat'],
	input: WaitForMessageInput,
	updates: NEW_MESSAGE_UPDATES,
	waits: WAITS,
	run: async (input, ctx) => {
		// The chat first (TDLib has it at hand): the wait starts once it is known.
		await ctx.invoke({ _: 'getChat', chat_id: input.chat_id })
		const watch = watchMessages(ctx)
		try {
			return await watch.next(matches(input), input.timeout_s ?? WAITS.default)
		} finally {
			watch.stop()
		}
	},
})
