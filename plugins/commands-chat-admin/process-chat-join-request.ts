import { defineCommand, documented, fields, optionalBool, requiredInt } from 'userbot-gateway/plugin'
import { ChatAdminErrors as E } from './errors'

/** `process_chat_join_request` → `processChatJoinRequest` (approve by default); result `{_: 'ok'}`. */
export const processChatJoinRequest = defineCommand({
	name: 'process_chat_join_request',
	policy: { action: 'write' },
	summary: "Approves (default) or declines one user's join request.",
	result: { description: "TDLib's `ok`.", tdlib: 'ok' },
	examples: [{ chat_id: -1000000003001, user_id: 1004, approve: true }],
	methods: ['processChatJoinRequest', 'createPrivateChat'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		user_id: requiredInt('user_id', E.USER_ID_REQUIRED),
		approve: documented(optionalBool('approve'), { default: true }),
	}),
	run: (input, ctx) =>
		ctx.invoke({
			_: 'processChatJoinRequest',
			chat_id: input.chat_id,
			user_id: input.user_id,
			approve: input.approve ?? true,
		}),
})
