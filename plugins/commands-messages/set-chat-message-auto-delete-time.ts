import { defineCommand, documented, fields, optionalInt, requiredInt } from 'userbot-gateway/plugin'
import { MessagesErrors as E } from './errors'

/** `set_chat_message_auto_delete_time` → `setChatMessageAutoDeleteTime`; echoes `{chat_id, message_auto_delete_time}`. */
export const setChatMessageAutoDeleteTime = defineCommand({
	name: 'set_chat_message_auto_delete_time',
	policy: { action: 'write' },
	summary: "Sets one chat's auto-delete time (0 or left out: off).",
	result: {
		description: 'An echo of what was applied.',
		schema: {
			type: 'object',
			properties: { chat_id: { type: 'integer' }, message_auto_delete_time: { type: 'integer' } },
			required: ['chat_id', 'message_auto_delete_time'],
		},
	},
	examples: [{ chat_id: -1000000003001, message_auto_delete_time: 604800 }],
	methods: ['setChatMessageAutoDeleteTime', 'createPrivateChat'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		message_auto_delete_time: documented(optionalInt('message_auto_delete_time'), { default: 0 }),
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
