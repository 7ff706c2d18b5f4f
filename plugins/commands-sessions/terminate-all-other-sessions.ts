import { defineCommand, fields } from 'userbot-gateway/plugin'
import { SessionsErrors as E } from './errors'
import { explainTooNew } from './too-new'

/**
 * `terminate_all_other_sessions` → `terminateAllOtherSessions`; result `{_: 'ok'}`. Every other device
 * of the account is logged out, other userbots of the same Telegram account included.
 */
export const terminateAllOtherSessions = defineCommand({
	name: 'terminate_all_other_sessions',
	policy: { action: 'manage', permission: 'sessions.terminate', destructive: true },
	audit: { action: 'sessions.terminated' },
	summary: 'Logs out every other device of the account.',
	result: { description: "TDLib's `ok`.", tdlib: 'ok' },
	errors: [E.SESSION_TOO_NEW],
	examples: [{}],
	methods: ['terminateAllOtherSessions'],
	input: fields({}),
	run: (_input, ctx) => ctx.invoke({ _: 'terminateAllOtherSessions' }).catch(explainTooNew),
})
