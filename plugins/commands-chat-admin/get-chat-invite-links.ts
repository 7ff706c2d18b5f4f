import {
	defineCommand,
	documented,
	fields,
	optionalBool,
	optionalString,
	requiredInt,
} from 'userbot-gateway/plugin'
import { ChatAdminErrors as E } from './errors'
import { DEFAULT_LIMIT, optionalInt32 } from './invite-fields'

/**
 * `get_chat_invite_links` → `getChatInviteLinks`; result `chatInviteLinks`. `creator_user_id` is
 * required, as the spec marks it: listing another administrator's links takes owner rights, so it
 * is never guessed.
 */
export const getChatInviteLinks = defineCommand({
	name: 'get_chat_invite_links',
	policy: { action: 'read' },
	summary: "An administrator's invite links of a chat, a page at a time.",
	result: { description: "TDLib's invite links.", tdlib: 'chatInviteLinks' },
	examples: [{ chat_id: -1000000003001, creator_user_id: 1002 }],
	methods: ['getChatInviteLinks', 'createPrivateChat'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		creator_user_id: requiredInt('creator_user_id', E.CREATOR_USER_ID_REQUIRED),
		is_revoked: documented(optionalBool('is_revoked'), { default: false }),
		offset_date: documented(optionalInt32('offset_date'), { default: 0 }),
		offset_invite_link: documented(optionalString('offset_invite_link'), { default: '' }),
		limit: documented(optionalInt32('limit'), { default: 50 }),
	}),
	run: (input, ctx) =>
		ctx.invoke({
			_: 'getChatInviteLinks',
			chat_id: input.chat_id,
			creator_user_id: input.creator_user_id,
			is_revoked: input.is_revoked ?? false,
			offset_date: input.offset_date ?? 0,
			offset_invite_link: input.offset_invite_link ?? '',
			limit: input.limit ?? DEFAULT_LIMIT,
		}),
})
