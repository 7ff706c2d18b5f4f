import { defineCommand, fields } from 'userbot-gateway/plugin'

/** `get_default_message_auto_delete_time` → `getDefaultMessageAutoDeleteTime`; raw `{time}`. */
export const getDefaultMessageAutoDeleteTime = defineCommand({
	name: 'get_default_message_auto_delete_time',
	policy: { action: 'read' },
	summary: 'The auto-delete time applied to new chats.',
	result: { description: 'The time in seconds (0: off).', tdlib: 'messageAutoDeleteTime' },
	examples: [{}],
	methods: ['getDefaultMessageAutoDeleteTime'],
	input: fields({}),
	run: (_input, ctx) => ctx.invoke({ _: 'getDefaultMessageAutoDeleteTime' }),
})
