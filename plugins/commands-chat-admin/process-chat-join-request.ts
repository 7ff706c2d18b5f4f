import { defineCommand, fields, optionalBool, requiredInt } from 'userbot-gateway/plugin'
import { ChatAdminErrors as E } from './errors'

/** `process_chat_join_request` → `processChatJoinRequest` (approve by default); result `{_: 'ok'}`. */
export const processChatJoinRequest = defineCommand({
	name: 'process_chat_join_request',
	methods: ['processChatJoinRequest'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		user_id: requiredInt('user_id', E.USER_ID_REQUIRED),
		approve: optionalBool('approve'),
	}),
	run: (input, ctx) =>
		ctx.invoke({
			_: 'processChatJoinRequest',
			chat_id: input.chat_id,
			user_id: input.user_id,
			approve: input.approve ?? true,
		}),
})
