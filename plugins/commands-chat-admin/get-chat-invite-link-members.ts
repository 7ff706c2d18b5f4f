import type { chatInviteLinkMember$Input } from 'tdlib-types'
import {
	defineCommand,
	fields,
	optionalBool,
	requiredInt,
	tdObjectField,
	tdSlot,
} from 'userbot-gateway/plugin'
import { ChatAdminErrors as E } from './errors'
import { DEFAULT_LIMIT, optionalInt32, requiredText } from './invite-fields'

const OFFSET = tdSlot('chatInviteLinkMember')

/**
 * `get_chat_invite_link_members` → `getChatInviteLinkMembers`; result `chatInviteLinkMembers`.
 * `offset_member` is a `chatInviteLinkMember` from an earlier page, checked by the validator (TDLib
 * reads its `user_id` and `joined_chat_date`).
 */
export const getChatInviteLinkMembers = defineCommand({
	name: 'get_chat_invite_link_members',
	methods: ['getChatInviteLinkMembers'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		invite_link: requiredText('invite_link', E.INVITE_LINK_REQUIRED),
		only_with_expired_subscription: optionalBool('only_with_expired_subscription'),
		offset_member: tdObjectField<chatInviteLinkMember$Input>('offset_member', OFFSET),
		limit: optionalInt32('limit'),
	}),
	run: (input, ctx) =>
		ctx.invoke({
			_: 'getChatInviteLinkMembers',
			chat_id: input.chat_id,
			invite_link: input.invite_link,
			only_with_expired_subscription: input.only_with_expired_subscription ?? false,
			offset_member: input.offset_member,
			limit: input.limit ?? DEFAULT_LIMIT,
		}),
})
