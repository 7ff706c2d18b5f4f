import { defineCommand, documented, fields } from 'userbot-gateway/plugin'
import { blockListField, DEFAULT_BLOCK_LIST } from './block-list'
import { optionalInt32 } from './int32'

/**
 * `get_blocked_users` → `getBlockedMessageSenders` with the defaults set explicitly (`blockListMain`,
 * offset 0, limit 50: TDLib has none); TDLib's `messageSenders` as it is. Blocked channels are
 * senders too (`messageSenderChat`).
 */
export const getBlockedUsers = defineCommand({
	name: 'get_blocked_users',
	policy: { action: 'read' },
	summary: 'Users (and chats) on a block list.',
	result: { description: "TDLib's message senders.", tdlib: 'messageSenders' },
	examples: [{ limit: 20 }, { block_list: 'blockListStories', offset: 0, limit: 50 }],
	methods: ['getBlockedMessageSenders'],
	input: fields({
		block_list: documented(blockListField, { default: 'blockListMain' }),
		offset: documented(optionalInt32('offset'), { default: 0 }),
		limit: documented(optionalInt32('limit'), { default: 50 }),
	}),
	run: (input, ctx) =>
		ctx.invoke({
			_: 'getBlockedMessageSenders',
			block_list: input.block_list ?? DEFAULT_BLOCK_LIST,
			offset: input.offset ?? 0,
			limit: input.limit ?? 50,
		}),
})
