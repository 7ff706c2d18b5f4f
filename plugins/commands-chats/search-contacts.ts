import { defineCommand, documented, fields } from 'userbot-gateway/plugin'
import { usersOf } from './chat-summary'
import { DEFAULT_CHATS_LIMIT } from './errors'
import { historyLimit } from './limits'
import { optionalText } from './strings'

/** `search_contacts {query?, limit?}` → `searchContacts`: contacts by first name, last name or username. */
export const searchContacts = defineCommand({
	name: 'search_contacts',
	policy: { action: 'read' },
	summary: 'Finds contacts by name or username (an empty query: all of them).',
	result: { description: "`{users, total_count}`: TDLib's `user`s found, up to `limit`." },
	examples: [{ query: 'ali' }, { query: '', limit: 50 }],
	methods: ['searchContacts', 'getUser'],
	input: fields({
		query: documented(optionalText('query'), { default: '' }),
		limit: historyLimit(DEFAULT_CHATS_LIMIT),
	}),
	run: async (input, ctx) => {
		const found = await ctx.invoke({
			_: 'searchContacts',
			query: input.query ?? '',
			limit: input.limit ?? DEFAULT_CHATS_LIMIT,
		})
		return { users: await usersOf(ctx, found.user_ids), total_count: found.total_count }
	},
})
