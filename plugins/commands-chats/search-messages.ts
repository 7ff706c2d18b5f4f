import type * as Td from 'tdlib-types'
import { defineCommand, documented, fields } from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { ChatsErrors as E } from './errors'
import { dateField, mediaFilter, searchFilter } from './filters'
import { historyLimit } from './limits'
import { optionalText } from './strings'

const CHAT_LISTS = {
	main: { _: 'chatListMain' },
	archive: { _: 'chatListArchive' },
} as const satisfies Record<string, Td.ChatList$Input>

const CHAT_TYPES = {
	private: { _: 'searchMessagesChatTypeFilterPrivate' },
	group: { _: 'searchMessagesChatTypeFilterGroup' },
	channel: { _: 'searchMessagesChatTypeFilterChannel' },
} as const satisfies Record<string, Td.SearchMessagesChatTypeFilter$Input>

const oneOf = <T extends Record<string, unknown>>(field: string, table: T, message: string) =>
	documented(
		v.pipe(
			optionalText(field),
			v.check((s) => s === undefined || Object.hasOwn(table, s), message),
		),
		{ enum: Object.keys(table) },
	)

/**
 * `search_messages {query?, filter?, chat_list?, chat_type?, min_date?, max_date?, offset?, limit?}`
 * → `searchMessages`: every chat of the account, newest first by (date, chat, message). `offset` is
 * the previous answer's `next_offset` (an opaque string; empty when there is no more). Telegram finds
 * nothing without words or a media filter.
 */
export const searchMessages = defineCommand({
	name: 'search_messages',
	policy: { action: 'read' },
	summary: 'Searches the messages of every chat of the account, newest first.',
	result: {
		description:
			"TDLib's `foundMessages`: `{total_count, messages, next_offset}`; pass `next_offset` as `offset` for the next page, empty at the end.",
		tdlib: 'foundMessages',
	},
	examples: [{ query: 'hello' }, { query: 'chatter', chat_type: 'group', limit: 20 }, { filter: 'document' }],
	methods: ['searchMessages'],
	input: fields({
		query: documented(optionalText('query'), { default: '' }),
		filter: mediaFilter,
		chat_list: oneOf('chat_list', CHAT_LISTS, E.SEARCH_CHAT_LIST),
		chat_type: oneOf('chat_type', CHAT_TYPES, E.CHAT_TYPE),
		min_date: dateField('min_date', E.MIN_DATE_RANGE),
		max_date: dateField('max_date', E.MAX_DATE_RANGE),
		offset: documented(optionalText('offset'), { default: '' }),
		limit: historyLimit(50),
	}),
	run: (input, ctx) =>
		ctx.invoke({
			_: 'searchMessages',
			chat_list: input.chat_list ? CHAT_LISTS[input.chat_list as keyof typeof CHAT_LISTS] : undefined,
			query: input.query ?? '',
			offset: input.offset ?? '',
			limit: input.limit ?? 50,
			filter: searchFilter(input.filter),
			chat_type_filter: input.chat_type ? CHAT_TYPES[input.chat_type as keyof typeof CHAT_TYPES] : undefined,
			min_date: input.min_date ?? 0,
			max_date: input.max_date ?? 0,
		}),
})
