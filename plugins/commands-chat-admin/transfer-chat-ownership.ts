import { defineCommand, fields, isUnicodeText, requiredInt, requiredValue } from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { ChatAdminErrors as E } from './errors'

/** The account's 2FA password: present and not empty, a string TDLib can carry. Never echoed. */
const password = v.pipe(
	requiredValue(E.PASSWORD_REQUIRED, {
		type: 'string',
		minLength: 1,
		description: "the account's 2FA password",
	}),
	v.check((x) => typeof x !== 'string' || x.length > 0, E.PASSWORD_REQUIRED),
	v.check((x) => x === null || typeof x === 'string', E.PASSWORD_NOT_STRING),
	v.check((x) => typeof x !== 'string' || isUnicodeText(x), E.PASSWORD_NOT_TEXT),
	v.transform((x) => x as string),
)

/**
 * `transfer_chat_ownership` → `transferChatOwnership`; result `{_: 'ok'}`. The password is the
 * account's 2FA password, checked by Telegram: `PASSWORD_HASH_INVALID` when wrong, `PASSWORD_MISSING`
 * when the account has none.
 */
export const transferChatOwnership = defineCommand({
	name: 'transfer_chat_ownership',
	policy: { action: 'manage', permission: 'chats.transfer_ownership', destructive: true },
	audit: {
		action: 'chat.ownership_transferred',
		detail: (input) => ({ chat_id: input.chat_id, user_id: input.user_id }),
	},
	checksSecret: true,
	summary: 'Makes another member the owner (needs the 2FA password).',
	result: { description: "TDLib's `ok`.", tdlib: 'ok' },
	examples: [{ chat_id: -1000000003001, user_id: 1001, password: 'secret-2fa' }],
	methods: ['transferChatOwnership', 'createPrivateChat'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		user_id: requiredInt('user_id', E.USER_ID_REQUIRED),
		password,
	}),
	run: (input, ctx) =>
		ctx.invoke({
			_: 'transferChatOwnership',
			chat_id: input.chat_id,
			user_id: input.user_id,
			password: input.password,
		}),
})
