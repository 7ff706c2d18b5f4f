import { defineCommand, fields, optionalBool, optionalString, requiredInt } from 'userbot-gateway/plugin'
import { ChatAdminErrors as E } from './errors'
import { optionalInt32 } from './invite-fields'

/** `create_chat_invite_link` → `createChatInviteLink`; result `chatInviteLink`. */
export const createChatInviteLink = defineCommand({
	name: 'create_chat_invite_link',
	methods: ['createChatInviteLink'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		name: optionalString('name'),
		expiration_date: optionalInt32('expiration_date'),
		member_limit: optionalInt32('member_limit'),
		creates_join_request: optionalBool('creates_join_request'),
	}),
	run: (input, ctx) =>
		ctx.invoke({
			_: 'createChatInviteLink',
			chat_id: input.chat_id,
			name: input.name ?? '',
			expiration_date: input.expiration_date ?? 0,
			member_limit: input.member_limit ?? 0,
			creates_join_request: input.creates_join_request ?? false,
		}),
})
