import type { chatJoinRequest$Input } from 'tdlib-types'
import {
	defineCommand,
	documented,
	fields,
	optionalString,
	requiredInt,
	tdObjectField,
	tdSlot,
} from 'userbot-gateway/plugin'
import { ChatAdminErrors as E } from './errors'
import { DEFAULT_LIMIT, optionalInt32, requiredText } from './invite-fields'

const OFFSET = tdSlot('chatJoinRequest')

/**
 * `get_chat_join_requests` → `getChatJoinRequests`; result `chatJoinRequests`. `invite_link` is
 * required, as ws-commands §4.5 has it (`""` included: TDLib would read an empty link as every link
 * of the chat). `offset_request` is a `chatJoinRequest` from an earlier page, checked by the validator.
 */
export const getChatJoinRequests = defineCommand({
	name: 'get_chat_join_requests',
	summary: 'Pending join requests of one invite link.',
	result: { description: "TDLib's join requests.", tdlib: 'chatJoinRequests' },
	examples: [{ chat_id: -1000000003001, invite_link: 'https://t.me/+AbCdEfGhIjKlMnOp', limit: 20 }],
	methods: ['getChatJoinRequests'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		invite_link: requiredText('invite_link', E.INVITE_LINK_REQUIRED),
		query: documented(optionalString('query'), { default: '' }),
		offset_request: tdObjectField<chatJoinRequest$Input>('offset_request', OFFSET),
		limit: documented(optionalInt32('limit'), { default: 50 }),
	}),
	run: (input, ctx) =>
		ctx.invoke({
			_: 'getChatJoinRequests',
			chat_id: input.chat_id,
			invite_link: input.invite_link,
			query: input.query ?? '',
			offset_request: input.offset_request,
			limit: input.limit ?? DEFAULT_LIMIT,
		}),
})
