import {
	defineCommand,
	documented,
	fields,
	optionalBool,
	optionalString,
	requiredInt,
} from 'userbot-gateway/plugin'
import { ChatAdminErrors as E } from './errors'
import { joinRequestLink } from './invite-fields'

/**
 * `process_chat_join_requests` → `processChatJoinRequests`; result `{_: 'ok'}`. TDLib reads an empty
 * `invite_link` as every pending request of the chat, and `approve` defaults to true: one frame with
 * a forgotten field would let everyone in. So `invite_link` is required (`invite_link is required`,
 * empty included), and every request of the chat is processed only when the frame says `all: true`
 * without a link. Both at once is refused: the frame would be ambiguous.
 */
export const processChatJoinRequests = defineCommand({
	name: 'process_chat_join_requests',
	policy: { action: 'write' },
	summary: 'Approves or declines every pending request of a link, or of the chat with `all: true`.',
	result: { description: "TDLib's `ok`.", tdlib: 'ok' },
	errors: [E.INVITE_LINK_WITH_ALL, E.INVITE_LINK_REQUIRED],
	examples: [{ chat_id: -1000000003001, invite_link: 'https://t.me/+AbCdEfGhIjKlMnOp', approve: false }],
	methods: ['processChatJoinRequests', 'createPrivateChat'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		invite_link: documented(optionalString('invite_link'), { default: '' }),
		all: optionalBool('all'),
		approve: documented(optionalBool('approve'), { default: true }),
	}),
	run(input, ctx) {
		return ctx.invoke({
			_: 'processChatJoinRequests',
			chat_id: input.chat_id,
			invite_link: joinRequestLink(input),
			approve: input.approve ?? true,
		})
	},
})
