import { defineCommand, documented, fields, optionalBool, requiredInt } from 'userbot-gateway/plugin'
import { blockListField, DEFAULT_BLOCK_LIST } from './block-list'
import { SessionsErrors as E } from './errors'

/**
 * `block_user` → `setMessageSenderBlockList`; result `{_: 'ok'}`. TDLib has no `is_blocked` flag: the
 * list carries it. Blocked (the default) puts the user on `block_list` (default `blockListMain`;
 * `blockListStories` hides stories only, and takes the user off the main list). `is_blocked: false`
 * sends no list, which takes the user off both lists; a `block_list` given with it is still checked.
 */
export const blockUser = defineCommand({
	name: 'block_user',
	policy: { action: 'write' },
	summary: 'Blocks a user (main list by default, or stories only), or unblocks with `is_blocked: false`.',
	result: { description: "TDLib's `ok`.", tdlib: 'ok' },
	examples: [{ user_id: 1004 }, { user_id: 1004, block_list: 'blockListStories' }],
	methods: ['setMessageSenderBlockList'],
	input: fields({
		user_id: requiredInt('user_id', E.USER_ID_REQUIRED),
		is_blocked: documented(optionalBool('is_blocked'), { default: true }),
		block_list: documented(blockListField, { default: 'blockListMain' }),
	}),
	run: (input, ctx) =>
		ctx.invoke({
			_: 'setMessageSenderBlockList',
			sender_id: { _: 'messageSenderUser', user_id: input.user_id },
			...((input.is_blocked ?? true) ? { block_list: input.block_list ?? DEFAULT_BLOCK_LIST } : {}),
		}),
})
