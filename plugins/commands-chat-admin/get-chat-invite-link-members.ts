import type { chatInviteLinkMember$Input } from 'tdlib-types'
import {
	defineCommand,
	documented,
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
	policy: { action: 'read' },
	summary: 'Who joined by a link.',
	result: { description: "TDLib's link members.", tdlib: 'chatInviteLinkMembers' },
	examples: [{ chat_id: -1000000003001, invite_link: 'https://t.me/+AbCdEfGhIjKlMnOp' }],
	methods: ['getChatInviteLinkMembers', 'createPrivateChat'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		invite_link: requiredText('invite_link', E.INVITE_LINK_REQUIRED),
		only_with_expired_subscription: documented(optionalBool('only_with_expired_subscription'), {
			default: false,
		}),
		offset_member: tdObjectField<chatInviteLinkMember$Input>('offset_member', OFFSET),
		limit: documented(optionalInt32('limit'), { default: 50 }),
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
