import { defineCommand, fields, optionalInt } from 'userbot-gateway/plugin'

/**
 * `set_default_message_auto_delete_time` → `setDefaultMessageAutoDeleteTime`. TDLib wants an object
 * (null is refused), the protocol an integer; a missing value means 0 (off), and the echoed result
 * is the value actually applied.
 */
export const setDefaultMessageAutoDeleteTime = defineCommand({
	name: 'set_default_message_auto_delete_time',
	policy: { action: 'write' },
	summary: 'Sets the auto-delete time of new chats (0 or left out: off).',
	result: { description: 'The value applied, in seconds (an echo).', schema: { type: 'integer' } },
	examples: [{ message_auto_delete_time: 86400 }],
	methods: ['setDefaultMessageAutoDeleteTime'],
	input: fields({ message_auto_delete_time: optionalInt('message_auto_delete_time') }),
	async run(input, ctx) {
		const time = input.message_auto_delete_time ?? 0
		await ctx.invoke({
			_: 'setDefaultMessageAutoDeleteTime',
			message_auto_delete_time: { _: 'messageAutoDeleteTime', time },
		})
		return time
	},
})
