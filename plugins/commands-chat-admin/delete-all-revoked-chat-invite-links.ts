import { defineCommand, fields, requiredInt } from 'userbot-gateway/plugin'
import { ChatAdminErrors as E } from './errors'

/**
 * `delete_all_revoked_chat_invite_links` → `deleteAllRevokedChatInviteLinks`; result `{_: 'ok'}`.
 * `creator_user_id` is required (whose revoked links go), as in get_chat_invite_links.
 */
export const deleteAllRevokedChatInviteLinks = defineCommand({
	name: 'delete_all_revoked_chat_invite_links',
	policy: { action: 'write', destructive: true },
	summary: 'Deletes every revoked link of one administrator.',
	result: { description: "TDLib's `ok`.", tdlib: 'ok' },
	examples: [{ chat_id: -1000000003001, creator_user_id: 1002 }],
	methods: ['deleteAllRevokedChatInviteLinks', 'createPrivateChat'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		creator_user_id: requiredInt('creator_user_id', E.CREATOR_USER_ID_REQUIRED),
	}),
	run: (input, ctx) =>
		ctx.invoke({
			_: 'deleteAllRevokedChatInviteLinks',
			chat_id: input.chat_id,
			creator_user_id: input.creator_user_id,
		}),
})
