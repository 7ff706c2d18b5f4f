import { defineCommand, fields, optionalBool, optionalString, requiredInt } from 'userbot-gateway/plugin'
import { ChatAdminErrors as E } from './errors'
import { DEFAULT_LIMIT, optionalInt32 } from './invite-fields'

/**
 * `get_chat_invite_links` → `getChatInviteLinks`; result `chatInviteLinks`. `creator_user_id` is
 * required, as the spec marks it: listing another administrator's links takes owner rights, so it
 * is never guessed.
 */
export const getChatInviteLinks = defineCommand({
	name: 'get_chat_invite_links',
	methods: ['getChatInviteLinks'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		creator_user_id: requiredInt('creator_user_id', E.CREATOR_USER_ID_REQUIRED),
		is_revoked: optionalBool('is_revoked'),
		offset_date: optionalInt32('offset_date'),
		offset_invite_link: optionalString('offset_invite_link'),
		limit: optionalInt32('limit'),
	}),
	run: (input, ctx) =>
		ctx.invoke({
			_: 'getChatInviteLinks',
			chat_id: input.chat_id,
			creator_user_id: input.creator_user_id,
			is_revoked: input.is_revoked ?? false,
			offset_date: input.offset_date ?? 0,
			offset_invite_link: input.offset_invite_link ?? '',
			limit: input.limit ?? DEFAULT_LIMIT,
		}),
})
