import type * as Td from 'tdlib-types'
import { defineCommand, documented, fields, optionalBool } from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { chatSummaries } from './chat-summary'
import { DEFAULT_CHATS_LIMIT, ChatsErrors as E } from './errors'
import { historyLimit } from './limits'
import { optionalText, requiredText } from './strings'

const TYPE_FILTERS = {
	channel: { _: 'searchChatTypeFilterChannel' },
	bot: { _: 'searchChatTypeFilterBot' },
} as const satisfies Record<string, Td.SearchChatTypeFilter$Input>

/**
 * `search_chats {query, public?, type_filter?, limit?}`: the chats the account knows whose title or
 * username matches (`searchChats`, offline, in the main list's order), or with `public: true` the
 * public chats Telegram finds (`searchPublicChats`: users, supergroups and channels by username or
 * title, without those already in the chat list; nothing for fewer than 4 characters, as the
 * server). Each chat is assembled as get_chats assembles it.
 */
export const searchChats = defineCommand({
	name: 'search_chats',
	policy: { action: 'read' },
	summary:
		'Finds chats by title or username: those the account knows, or public ones on Telegram (`public: true`).',
	result: {
		description:
			"`{chats: [{id, title, type, is_channel (a supergroup), unread_count, last_message, photo_file_ids}], total_count}`, as get_chats's; a public search gives what Telegram found, up to `limit`.",
	},
	examples: [{ query: 'lounge' }, { query: 'emulator', public: true, type_filter: 'channel' }],
	flood: 'resolve',
	methods: ['searchChats', 'searchPublicChats', 'getChat'],
	input: fields({
		query: requiredText('query', E.QUERY_REQUIRED),
		public: documented(optionalBool('public'), { default: false }),
		type_filter: documented(
			v.pipe(
				optionalText('type_filter'),
				v.check((s) => s === undefined || Object.hasOwn(TYPE_FILTERS, s), E.TYPE_FILTER),
			),
			{ enum: Object.keys(TYPE_FILTERS) },
		),
		limit: historyLimit(DEFAULT_CHATS_LIMIT),
	}),
	run: async (input, ctx) => {
		const limit = input.limit ?? DEFAULT_CHATS_LIMIT
		const type_filter = input.type_filter
			? TYPE_FILTERS[input.type_filter as keyof typeof TYPE_FILTERS]
			: undefined
		const found = input.public
			? await ctx.invoke({ _: 'searchPublicChats', query: input.query, type_filter })
			: await ctx.invoke({ _: 'searchChats', query: input.query, type_filter, limit })
		const chats = await chatSummaries(ctx, found.chat_ids.slice(0, limit))
		return { chats, total_count: found.total_count }
	},
})
