import { defineCommand, fields, requiredInt } from 'userbot-gateway/plugin'
import { ChatAdminErrors as E } from './errors'
import { requiredText } from './invite-fields'

/** `delete_revoked_chat_invite_link` → `deleteRevokedChatInviteLink`; result `{_: 'ok'}`. */
export const deleteRevokedChatInviteLink = defineCommand({
	name: 'delete_revoked_chat_invite_link',
	policy: { action: 'write', destructive: true },
	summary: 'Deletes a revoked link.',
	result: { description: "TDLib's `ok`.", tdlib: 'ok' },
	examples: [{ chat_id: -1000000003001, invite_link: 'https://t.me/+AbCdEfGhIjKlMnOp' }],
	methods: ['deleteRevokedChatInviteLink', 'createPrivateChat'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		invite_link: requiredText('invite_link', E.INVITE_LINK_REQUIRED),
	}),
	run: (input, ctx) =>
		ctx.invoke({ _: 'deleteRevokedChatInviteLink', chat_id: input.chat_id, invite_link: input.invite_link }),
})
