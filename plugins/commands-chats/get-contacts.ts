import { defineCommand, fields } from 'userbot-gateway/plugin'
import { usersOf } from './chat-summary'
import { DEFAULT_CHATS_LIMIT } from './errors'
import { historyLimit, pageOffset } from './limits'

/**
 * `get_contacts {offset?, limit?}`: the account's contacts (`getContacts`, all their ids in TDLib's
 * order, by name), a page of them as TDLib's `user`s (`getUser` each), so a client shows names.
 */
export const getContacts = defineCommand({
	name: 'get_contacts',
	policy: { action: 'read' },
	summary: "A page of the account's contacts, each a full user.",
	result: {
		description:
			"`{users, total_count, offset, next_offset}`: TDLib's `user`s of the page; `next_offset` is 0 at the end.",
	},
	examples: [{}, { offset: 20, limit: 20 }],
	methods: ['getContacts', 'getUser'],
	input: fields({
		offset: pageOffset,
		limit: historyLimit(DEFAULT_CHATS_LIMIT),
	}),
	run: async (input, ctx) => {
		const offset = input.offset ?? 0
		const limit = input.limit ?? DEFAULT_CHATS_LIMIT
		const { user_ids } = await ctx.invoke({ _: 'getContacts' })
		const users = await usersOf(ctx, user_ids.slice(offset, offset + limit))
		const next = offset + limit
		return { users, total_count: user_ids.length, offset, next_offset: user_ids.length > next ? next : 0 }
	},
})
