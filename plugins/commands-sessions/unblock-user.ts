import { defineCommand, fields, requiredInt } from 'userbot-gateway/plugin'
import { SessionsErrors as E } from './errors'

/**
 * `unblock_user` → `setMessageSenderBlockList` with no list, which takes the user off both the main
 * and the stories list; result `{_: 'ok'}`.
 */
export const unblockUser = defineCommand({
	name: 'unblock_user',
	policy: { action: 'write' },
	summary: 'Takes a user off both block lists.',
	result: { description: "TDLib's `ok`.", tdlib: 'ok' },
	examples: [{ user_id: 1004 }],
	methods: ['setMessageSenderBlockList'],
	input: fields({ user_id: requiredInt('user_id', E.USER_ID_REQUIRED) }),
	run: (input, ctx) =>
		ctx.invoke({
			_: 'setMessageSenderBlockList',
			sender_id: { _: 'messageSenderUser', user_id: input.user_id },
		}),
})
