import { defineCommand, fields, optionalString, requiredInt } from 'userbot-gateway/plugin'
import { ChatAdminErrors as E } from './errors'
import { requiredText } from './invite-fields'

/**
 * `edit_chat_subscription_invite_link` → `editChatSubscriptionInviteLink`; result `chatInviteLink`.
 * Its only editable field is the name. TDLib would clear the name when it is left out; here an
 * omitted `name` keeps it, like edit_chat_invite_link's omitted fields: nothing is edited, and the
 * answer is the link as it stands (`getChatInviteLink`). `name: ""` clears it.
 */
export const editChatSubscriptionInviteLink = defineCommand({
	name: 'edit_chat_subscription_invite_link',
	policy: { action: 'write' },
	summary: 'Renames a subscription link (left out, nothing changes).',
	result: { description: 'The link as it now stands.', tdlib: 'chatInviteLink' },
	examples: [{ chat_id: -1000000003002, invite_link: 'https://t.me/+AbCdEfGhIjKlMnOp', name: 'vip' }],
	methods: ['getChatInviteLink', 'editChatSubscriptionInviteLink', 'createPrivateChat'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		invite_link: requiredText('invite_link', E.INVITE_LINK_REQUIRED),
		name: optionalString('name'),
	}),
	run(input, ctx) {
		const { chat_id, invite_link, name } = input
		if (name === undefined) return ctx.invoke({ _: 'getChatInviteLink', chat_id, invite_link })
		return ctx.invoke({ _: 'editChatSubscriptionInviteLink', chat_id, invite_link, name })
	},
})
