import { defineCommand, fields } from 'userbot-gateway/plugin'
import { blockListField, DEFAULT_BLOCK_LIST } from './block-list'
import { optionalInt32 } from './int32'

/**
 * `get_blocked_users` → `getBlockedMessageSenders` with the defaults set explicitly (`blockListMain`,
 * offset 0, limit 50: TDLib has none); TDLib's `messageSenders` as it is. Blocked channels are
 * senders too (`messageSenderChat`).
 */
export const getBlockedUsers = defineCommand({
	name: 'get_blocked_users',
	methods: ['getBlockedMessageSenders'],
	input: fields({
		block_list: blockListField,
		offset: optionalInt32('offset'),
		limit: optionalInt32('limit'),
	}),
	run: (input, ctx) =>
		ctx.invoke({
			_: 'getBlockedMessageSenders',
			block_list: input.block_list ?? DEFAULT_BLOCK_LIST,
			offset: input.offset ?? 0,
			limit: input.limit ?? 50,
		}),
})
