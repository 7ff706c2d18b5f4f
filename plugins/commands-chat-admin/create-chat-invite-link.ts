import { defineCommand, fields, optionalString, requiredInt } from 'userbot-gateway/plugin'
import { ChatAdminErrors as E } from './errors'
import { linkTermFields, termsOrDefaults } from './invite-fields'

/** `create_chat_invite_link` → `createChatInviteLink`; result `chatInviteLink`. */
export const createChatInviteLink = defineCommand({
	name: 'create_chat_invite_link',
	policy: { action: 'write' },
	summary: 'A new invite link, with a name, expiry, member limit or approval.',
	result: { description: 'The new link.', tdlib: 'chatInviteLink' },
	examples: [{ chat_id: -1000000003001, name: 'partners', member_limit: 50 }],
	methods: ['createChatInviteLink', 'createPrivateChat'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		name: optionalString('name'),
		...linkTermFields,
	}),
	run: (input, ctx) =>
		ctx.invoke({ _: 'createChatInviteLink', chat_id: input.chat_id, ...termsOrDefaults(input) }),
})
