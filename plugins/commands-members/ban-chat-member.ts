import { defineCommand, documented, fields, optionalBool, requiredInt } from 'userbot-gateway/plugin'
import { MembersErrors as E } from './errors'
import { untilDateField } from './until-date'

/**
 * `ban_chat_member {chat_id, user_id, until_date?, revoke_messages?}` → `banChatMember`: the user is
 * removed and may not come back (by a link either) until `until_date` (Unix time; 0 or left out:
 * for ever; TDLib reads less than 30 seconds or more than 366 days ahead as for ever). In a basic
 * group, which has no ban list, the user is removed. `revoke_messages` deletes their messages too.
 */
export const banChatMember = defineCommand({
	name: 'ban_chat_member',
	policy: { action: 'write', destructive: true },
	summary:
		'Bans a user from a group or channel (until a date, or for ever), deleting their messages if asked.',
	result: { description: "TDLib's `ok`.", tdlib: 'ok' },
	examples: [
		{ chat_id: -1000000003001, user_id: 1005 },
		{ chat_id: -1000000003001, user_id: 1005, until_date: 1900000000, revoke_messages: true },
	],
	methods: ['banChatMember', 'createPrivateChat'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		user_id: requiredInt('user_id', E.USER_ID_REQUIRED),
		until_date: untilDateField('until_date'),
		revoke_messages: documented(optionalBool('revoke_messages'), { default: false }),
	}),
	run: (input, ctx) =>
		ctx.invoke({
			_: 'banChatMember',
			chat_id: input.chat_id,
			member_id: { _: 'messageSenderUser', user_id: input.user_id },
			banned_until_date: input.until_date ?? 0,
			revoke_messages: input.revoke_messages ?? false,
		}),
})
