import { defineCommand, fields, requiredString } from 'userbot-gateway/plugin'
import { ChatsErrors as E } from './errors'

/** `join_chat_by_invite_link {invite_link}` → `joinChatByInviteLink`. */
export const joinChatByInviteLink = defineCommand({
	name: 'join_chat_by_invite_link',
	policy: { action: 'write' },
	summary: 'Joins a group or channel by an invite link, or asks to join where the link needs approval.',
	methods: ['joinChatByInviteLink'],
	input: fields({
		invite_link: requiredString('invite_link', { missing: E.INVITE_LINK_REQUIRED }),
	}),
	result: {
		description: 'Joined (with the chat id), or a join request sent to the administrators.',
		tdlib: ['chatJoinResultSuccess', 'chatJoinResultRequestSent'],
	},
	examples: [{ invite_link: 'https://t.me/+AbCdEfGhIjKlMnOp' }],
	run: (input, ctx) => ctx.invoke({ _: 'joinChatByInviteLink', invite_link: input.invite_link }),
})
