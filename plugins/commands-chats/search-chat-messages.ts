import type * as Td from 'tdlib-types'
import { defineCommand, documented, fields, optionalInt, requiredInt } from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { ChatsErrors as E } from './errors'
import { mediaFilter, searchFilter } from './filters'
import { historyLimit, historyOffset } from './limits'
import { optionalText } from './strings'

/** A chat's id is negative (groups, channels), a user's positive: the sender is told by its sign. */
const sender = (id: number | undefined): Td.MessageSender$Input | undefined =>
	id === undefined
		? undefined
		: id > 0
			? { _: 'messageSenderUser', user_id: id }
			: { _: 'messageSenderChat', chat_id: id }

/**
 * `search_chat_messages {chat_id, query?, sender_id?, filter?, from_message_id?, offset?, limit?}` →
 * `searchChatMessages`, newest first. TDLib's paging: `from_message_id` is excluded (the answer
 * starts with the message before it), and the next page starts at `next_from_message_id` (0: no
 * more). TDLib may answer fewer than `limit` with more to come: page on until it says 0.
 */
export const searchChatMessages = defineCommand({
	name: 'search_chat_messages',
	policy: { action: 'read' },
	summary: 'Searches one chat: by words, by sender, by media kind; newest first.',
	result: {
		description:
			"TDLib's `foundChatMessages`: `{total_count, messages, next_from_message_id}`, `next_from_message_id` 0 when there is no more.",
		tdlib: 'foundChatMessages',
	},
	examples: [
		{ chat_id: -1000000003001, query: 'chatter' },
		{ chat_id: 1001, filter: 'photo' },
		{ chat_id: -1000000003001, sender_id: 1003, limit: 10 },
	],
	methods: ['searchChatMessages', 'createPrivateChat'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		query: documented(optionalText('query'), { default: '' }),
		sender_id: documented(
			v.pipe(
				optionalInt('sender_id'),
				v.check((n) => n !== 0, E.SENDER_ID),
			),
			{ description: 'a user id (positive) or a chat id (negative): only messages it sent' },
		),
		filter: mediaFilter,
		from_message_id: optionalInt('from_message_id'),
		offset: historyOffset,
		limit: historyLimit(50),
	}),
	run: (input, ctx) =>
		ctx.invoke({
			_: 'searchChatMessages',
			chat_id: input.chat_id,
			query: input.query ?? '',
			sender_id: sender(input.sender_id),
			from_message_id: input.from_message_id ?? 0,
			offset: input.offset ?? 0,
			limit: input.limit ?? 50,
			filter: searchFilter(input.filter),
		}),
})
