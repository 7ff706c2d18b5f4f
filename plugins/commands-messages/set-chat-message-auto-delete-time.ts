import { defineCommand, fields, optionalInt, requiredInt } from 'userbot-gateway/plugin'
import { MessagesErrors as E } from './errors'

/** `set_chat_message_auto_delete_time` → `setChatMessageAutoDeleteTime`; echoes `{chat_id, message_auto_delete_time}`. */
export const setChatMessageAutoDeleteTime = defineCommand({
	name: 'set_chat_message_auto_delete_time',
	methods: ['setChatMessageAutoDeleteTime'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		message_auto_delete_time: optionalInt('message_auto_delete_time'),
	}),
	async run(input, ctx) {
		const time = input.message_auto_delete_time ?? 0
		await ctx.invoke({
			_: 'setChatMessageAutoDeleteTime',
			chat_id: input.chat_id,
			message_auto_delete_time: time,
		})
		return { chat_id: input.chat_id, message_auto_delete_time: time }
	},
})
