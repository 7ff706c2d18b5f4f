import {
	defineCommand,
	documented,
	fields,
	optionalBool,
	optionalString,
	requiredInt,
} from 'userbot-gateway/plugin'
import { ChatAdminErrors as E } from './errors'
import { optionalInt32 } from './invite-fields'

/** `create_chat_invite_link` → `createChatInviteLink`; result `chatInviteLink`. */
export const createChatInviteLink = defineCommand({
	name: 'create_chat_invite_link',
	summary: 'A new invite link, with a name, expiry, member limit or approval.',
	result: { description: 'The new link.', tdlib: 'chatInviteLink' },
	examples: [{ chat_id: -1000000003001, name: 'partners', member_limit: 50 }],
	methods: ['createChatInviteLink'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		name: optionalString('name'),
		expiration_date: documented(optionalInt32('expiration_date'), { default: 0 }),
		member_limit: documented(optionalInt32('member_limit'), { default: 0 }),
		creates_join_request: documented(optionalBool('creates_join_request'), { default: false }),
	}),
	run: (input, ctx) =>
		ctx.invoke({
			_: 'createChatInviteLink',
			chat_id: input.chat_id,
			name: input.name ?? '',
			expiration_date: input.expiration_date ?? 0,
			member_limit: input.member_limit ?? 0,
			creates_join_request: input.creates_join_request ?? false,
		}),
})
