import { defineCommand, documented, fields, optionalInt, tdObjectField, tdSlot } from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { DEFAULT_LIMIT, ChatsErrors as E, MAX_LIMIT } from './errors'

const limit = documented(
	v.pipe(
		optionalInt('limit'),
		v.check((n) => n === undefined || (n >= 1 && n <= MAX_LIMIT), E.LIMIT_RANGE),
	),
	{ minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
)

/** `example_get_chats {chat_list?, limit?}` → `getChats`: the first chats of a list, newest first. */
export const getChats = defineCommand({
	name: 'example_get_chats',
	policy: { action: 'read' },
	summary: 'The first chats of a chat list (main by default), newest first.',
	methods: ['getChats'],
	input: fields({
		// A TDLib object a client hands us goes through the validator, never straight to TDLib.
		chat_list: documented(
			tdObjectField('chat_list', tdSlot('ChatList'), { strings: true, message: E.CHAT_LIST }),
			{ default: 'chatListMain' },
		),
		limit,
	}),
	result: {
		description: "TDLib's chat ids, in the list's order, and how many the list holds.",
		tdlib: 'chats',
	},
	examples: [{}, { chat_list: 'chatListArchive', limit: 20 }],
	run: (input, ctx) =>
		ctx.invoke({
			_: 'getChats',
			chat_list: (input.chat_list as { _: 'chatListMain' } | undefined) ?? { _: 'chatListMain' },
			limit: input.limit ?? DEFAULT_LIMIT,
		}),
})
