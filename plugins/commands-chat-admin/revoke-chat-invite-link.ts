import { defineCommand, fields, requiredInt } from 'userbot-gateway/plugin'
import { ChatAdminErrors as E } from './errors'
import { requiredText } from './invite-fields'

/**
 * `revoke_chat_invite_link` → `revokeChatInviteLink`; result `chatInviteLinks`: the revoked link,
 * and after it the new primary link when the primary one was revoked.
 */
export const revokeChatInviteLink = defineCommand({
	name: 'revoke_chat_invite_link',
	policy: { action: 'write', destructive: true },
	summary: 'Revokes a link (a revoked primary link is replaced).',
	result: {
		description: 'The revoked link, then the new primary one if it was the primary.',
		tdlib: 'chatInviteLinks',
	},
	examples: [{ chat_id: -1000000003001, invite_link: 'https://t.me/+AbCdEfGhIjKlMnOp' }],
	methods: ['revokeChatInviteLink', 'createPrivateChat'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		invite_link: requiredText('invite_link', E.INVITE_LINK_REQUIRED),
	}),
	run: (input, ctx) =>
		ctx.invoke({ _: 'revokeChatInviteLink', chat_id: input.chat_id, invite_link: input.invite_link }),
})
