import { defineCommand, fields } from 'userbot-gateway/plugin'

/** `get_active_sessions` → `getActiveSessions`; TDLib's `sessions` as it is (ids are int64 strings). */
export const getActiveSessions = defineCommand({
	name: 'get_active_sessions',
	policy: { action: 'read' },
	summary: "The account's active sessions (devices), ids as int64 strings.",
	result: { description: "TDLib's sessions.", tdlib: 'sessions' },
	examples: [{}],
	methods: ['getActiveSessions'],
	input: fields({}),
	run: (_input, ctx) => ctx.invoke({ _: 'getActiveSessions' }),
})
