import type { chatJoinRequest$Input } from 'tdlib-types'
import {
	defineCommand,
	documented,
	fields,
	optionalBool,
	optionalString,
	requiredInt,
	tdObjectField,
	tdSlot,
} from 'userbot-gateway/plugin'
import { ChatAdminErrors as E } from './errors'
import { DEFAULT_LIMIT, joinRequestLink, optionalInt32 } from './invite-fields'

const OFFSET = tdSlot('chatJoinRequest')

/**
 * `get_chat_join_requests` → `getChatJoinRequests`; result `chatJoinRequests`. `invite_link` is
 * required, as docs/commands.md#commands-chat-admin has it (`""` included: it names no link). TDLib reads an
 * empty link as every link of the chat; that listing takes an explicit `all: true` without a link, as in
 * process_chat_join_requests. `offset_request` is a `chatJoinRequest` from an earlier page, checked by the
 * validator.
 */
export const getChatJoinRequests = defineCommand({
	name: 'get_chat_join_requests',
	policy: { action: 'read' },
	summary: 'Pending join requests of one invite link, or of every link with `all: true`.',
	result: { description: "TDLib's join requests.", tdlib: 'chatJoinRequests' },
	errors: [E.INVITE_LINK_WITH_ALL, E.INVITE_LINK_REQUIRED],
	examples: [{ chat_id: -1000000003001, invite_link: 'https://t.me/+AbCdEfGhIjKlMnOp', limit: 20 }],
	methods: ['getChatJoinRequests', 'createPrivateChat'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		invite_link: optionalString('invite_link'),
		all: documented(optionalBool('all'), {
			default: false,
			description: 'true, without invite_link: the requests of every link of the chat',
		}),
		query: documented(optionalString('query'), { default: '' }),
		offset_request: tdObjectField<chatJoinRequest$Input>('offset_request', OFFSET),
		limit: documented(optionalInt32('limit'), { default: 50 }),
	}),
	run(input, ctx) {
		return ctx.invoke({
			_: 'getChatJoinRequests',
			chat_id: input.chat_id,
			invite_link: joinRequestLink(input),
			query: input.query ?? '',
			offset_request: input.offset_request,
			limit: input.limit ?? DEFAULT_LIMIT,
		})
	},
})
