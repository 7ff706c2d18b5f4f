import { defineCommand, fields, requiredInt } from 'userbot-gateway/plugin'
import { MembersErrors as E } from './errors'

/**
 * `restore_chat_member` → `setChatMemberStatus(Member)`: unban and add back (docs/tdlib-mapping.md#members). A
 * banned user is unbanned and re-added, a restricted member freed of the restrictions, one who left
 * added again; in a basic group, a non-member is added. When the re-add fails (the user's privacy
 * settings) TDLib answers `USER_PRIVACY_RESTRICTED` and the unban stays. Result `{_: 'ok'}`.
 */
export const restoreChatMember = defineCommand({
	name: 'restore_chat_member',
	policy: { action: 'write' },
	summary: 'Lets a removed, banned or restricted user back as a plain member.',
	result: { description: "TDLib's `ok`.", tdlib: 'ok' },
	examples: [{ chat_id: -1000000003001, user_id: 1005 }],
	methods: ['setChatMemberStatus', 'createPrivateChat'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		user_id: requiredInt('user_id', E.USER_ID_REQUIRED),
	}),
	run: (input, ctx) =>
		ctx.invoke({
			_: 'setChatMemberStatus',
			chat_id: input.chat_id,
			member_id: { _: 'messageSenderUser', user_id: input.user_id },
			status: { _: 'chatMemberStatusMember' },
		}),
})
