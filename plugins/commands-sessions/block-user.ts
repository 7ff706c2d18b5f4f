import { defineCommand, fields, optionalBool, requiredInt } from 'userbot-gateway/plugin'
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
	methods: ['setMessageSenderBlockList'],
	input: fields({
		user_id: requiredInt('user_id', E.USER_ID_REQUIRED),
		is_blocked: optionalBool('is_blocked'),
		block_list: blockListField,
	}),
	run: (input, ctx) =>
		ctx.invoke({
			_: 'setMessageSenderBlockList',
			sender_id: { _: 'messageSenderUser', user_id: input.user_id },
			...((input.is_blocked ?? true) ? { block_list: input.block_list ?? DEFAULT_BLOCK_LIST } : {}),
		}),
})
