import type { messageSenderUser$Input } from 'tdlib-types'
import { CommandError, defineCommand, fields, requiredInt } from 'userbot-gateway/plugin'
import { ChatAdminErrors as E } from './errors'

/**
 * `remove_chat_administrator`: `getChat` (channels and groups only), `getChatMember`, and only for an
 * administrator `setChatMemberStatus(Member)`: on anyone else Member would add them to the chat
 * (docs/tdlib-mapping.md#chat-administration-and-invites), so a member, a user who left or a banned one is
 * refused, and so is the owner. Result `{_: 'ok'}`. (A user who leaves between the two requests would be
 * added back: TDLib offers no "demote only if administrator".)
 */
export const removeChatAdministrator = defineCommand({
	name: 'remove_chat_administrator',
	policy: { action: 'write', destructive: true },
	summary: 'Demotes an administrator to a plain member.',
	result: { description: "TDLib's `ok`.", tdlib: 'ok' },
	errors: [E.REMOVE_ADMIN_CHAT_KIND, E.OWNER_NOT_REMOVABLE, E.NOT_AN_ADMINISTRATOR],
	examples: [{ chat_id: -1000000003001, user_id: 1001 }],
	methods: ['getChat', 'getChatMember', 'setChatMemberStatus', 'createPrivateChat'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		user_id: requiredInt('user_id', E.USER_ID_REQUIRED),
	}),
	async run(input, ctx) {
		const chat = await ctx.invoke({ _: 'getChat', chat_id: input.chat_id })
		if (chat.type._ === 'chatTypePrivate' || chat.type._ === 'chatTypeSecret')
			throw new CommandError(E.REMOVE_ADMIN_CHAT_KIND)
		const member_id: messageSenderUser$Input = { _: 'messageSenderUser', user_id: input.user_id }
		const { status } = await ctx.invoke({ _: 'getChatMember', chat_id: input.chat_id, member_id })
		if (status._ === 'chatMemberStatusCreator') throw new CommandError(E.OWNER_NOT_REMOVABLE)
		if (status._ !== 'chatMemberStatusAdministrator') throw new CommandError(E.NOT_AN_ADMINISTRATOR)
		return ctx.invoke({
			_: 'setChatMemberStatus',
			chat_id: input.chat_id,
			member_id,
			status: { _: 'chatMemberStatusMember' },
		})
	},
})
