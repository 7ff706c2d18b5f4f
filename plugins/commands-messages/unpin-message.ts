import {
	defineCommand,
	documented,
	fields,
	optionalBool,
	optionalInt,
	requiredInt,
} from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { MessagesErrors as E } from './errors'

/**
 * `unpin_message` → `unpinChatMessage`, or with `all` → `unpinAllChatMessages` (every pinned
 * message of the chat); result `{_: 'ok'}`.
 */
export const unpinMessage = defineCommand({
	name: 'unpin_message',
	policy: { action: 'write' },
	summary: 'Unpins a message, or with `all` every pinned message of the chat.',
	result: { description: "TDLib's `ok`.", tdlib: 'ok' },
	examples: [
		{ chat_id: -1000000003001, message_id: 1048576 },
		{ chat_id: -1000000003001, all: true },
	],
	methods: ['unpinChatMessage', 'unpinAllChatMessages', 'createPrivateChat'],
	input: v.pipe(
		fields({
			chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
			message_id: optionalInt('message_id'),
			all: documented(optionalBool('all'), {
				default: false,
				description: 'true: every pinned message of the chat (then no message_id)',
			}),
		}),
		v.check((o) => o.all === true || o.message_id !== undefined, E.MESSAGE_ID_REQUIRED),
		v.check((o) => o.all !== true || o.message_id === undefined, E.UNPIN_WHAT),
	),
	run: (input, ctx) =>
		input.all === true
			? ctx.invoke({ _: 'unpinAllChatMessages', chat_id: input.chat_id })
			: ctx.invoke({ _: 'unpinChatMessage', chat_id: input.chat_id, message_id: input.message_id ?? 0 }),
})
