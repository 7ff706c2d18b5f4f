import {
	defineCommand,
	documented,
	fields,
	listCap,
	optionalBool,
	requiredInt,
	requiredIntList,
} from 'userbot-gateway/plugin'
import { ChatsErrors as E } from './errors'

/**
 * `view_messages {chat_id, message_ids, force_read?}` → `viewMessages`: the messages are shown to the
 * user, which marks them read (and counts a view in channels). **Decision:** `force_read` defaults to
 * true: the gateway never opens a chat (`openChat`), and TDLib reads a closed chat's messages only
 * when forced, so without it the command would do nothing a client can see.
 */
export const viewMessages = defineCommand({
	name: 'view_messages',
	policy: { action: 'write' },
	summary: "Marks messages as viewed, and so read (the chat's unread count goes down).",
	result: { description: "TDLib's `ok`.", tdlib: 'ok' },
	examples: [{ chat_id: -1000000003001, message_ids: [1048576, 2097152] }],
	methods: ['viewMessages', 'createPrivateChat'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		message_ids: requiredIntList(
			'message_ids',
			E.MESSAGE_IDS_EMPTY,
			E.MESSAGE_IDS_REQUIRED,
			listCap('message_ids', 'message ids'),
		),
		force_read: documented(optionalBool('force_read'), { default: true }),
	}),
	run: (input, ctx) =>
		ctx.invoke({
			_: 'viewMessages',
			chat_id: input.chat_id,
			message_ids: input.message_ids,
			force_read: input.force_read ?? true,
		}),
})
