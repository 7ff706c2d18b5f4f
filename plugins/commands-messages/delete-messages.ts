import {
	defineCommand,
	documented,
	fields,
	optionalBool,
	requiredInt,
	requiredIntList,
} from 'userbot-gateway/plugin'
import { MessagesErrors as E, MAX_MESSAGE_IDS } from './errors'

/** `delete_messages` → `deleteMessages`; result `{_: 'ok'}`. An empty list is TDLib's no-op. */
export const deleteMessages = defineCommand({
	name: 'delete_messages',
	policy: { action: 'write', destructive: true },
	summary: 'Deletes messages of a chat, for everyone with `revoke`.',
	result: { description: "TDLib's `ok`.", tdlib: 'ok' },
	examples: [{ chat_id: -1000000003001, message_ids: [1048576], revoke: true }],
	methods: ['deleteMessages', 'createPrivateChat'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		message_ids: requiredIntList('message_ids', undefined, E.MESSAGE_IDS_REQUIRED, {
			max: MAX_MESSAGE_IDS,
			tooMany: E.MESSAGE_IDS_TOO_MANY,
		}),
		revoke: documented(optionalBool('revoke'), { default: false }),
	}),
	run: (input, ctx) =>
		ctx.invoke({
			_: 'deleteMessages',
			chat_id: input.chat_id,
			message_ids: input.message_ids,
			revoke: input.revoke ?? false,
		}),
})
