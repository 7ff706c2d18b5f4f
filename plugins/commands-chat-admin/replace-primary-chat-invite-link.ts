import { defineCommand, fields, requiredInt } from 'userbot-gateway/plugin'
import { ChatAdminErrors as E } from './errors'

/**
 * `replace_primary_chat_invite_link` → `replacePrimaryChatInviteLink`; result the new primary
 * `chatInviteLink` (the old one is revoked).
 */
export const replacePrimaryChatInviteLink = defineCommand({
	name: 'replace_primary_chat_invite_link',
	policy: { action: 'write', destructive: true },
	summary: 'Revokes the primary link and makes a new one.',
	result: { description: 'The new primary link.', tdlib: 'chatInviteLink' },
	examples: [{ chat_id: -1000000003001 }],
	methods: ['replacePrimaryChatInviteLink', 'createPrivateChat'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
	}),
	run: (input, ctx) => ctx.invoke({ _: 'replacePrimaryChatInviteLink', chat_id: input.chat_id }),
})
