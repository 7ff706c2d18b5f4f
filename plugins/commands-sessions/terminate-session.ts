import { CommandError, defineCommand, fields } from 'userbot-gateway/plugin'
import { SessionsErrors as E } from './errors'
import { sessionIdField } from './session-id'
import { explainTooNew } from './too-new'

/**
 * `terminate_session` → `getActiveSessions`, then `terminateSession`; result `{_: 'ok'}`. The current
 * session is told by TDLib's `is_current`, never by its id (Telegram gives it no fixed value). An id
 * not in the list goes to TDLib all the same, which answers for it (`HASH_INVALID`).
 */
export const terminateSession = defineCommand({
	name: 'terminate_session',
	policy: { action: 'manage', permission: 'sessions.terminate', destructive: true },
	audit: { action: 'session.terminated', detail: (input) => ({ session_id: String(input.session_id) }) },
	summary: 'Logs out one other session (never the current one).',
	result: { description: "TDLib's `ok`.", tdlib: 'ok' },
	errors: [E.CURRENT_SESSION, E.SESSION_TOO_NEW],
	examples: [{ session_id: '1234567890123456789' }],
	methods: ['getActiveSessions', 'terminateSession'],
	input: fields({ session_id: sessionIdField }),
	async run(input, ctx) {
		const { sessions } = await ctx.invoke({ _: 'getActiveSessions' })
		if (sessions.some((s) => s.is_current && BigInt(s.id) === BigInt(input.session_id))) {
			throw new CommandError(E.CURRENT_SESSION)
		}
		return ctx.invoke({ _: 'terminateSession', session_id: input.session_id }).catch(explainTooNew)
	},
})
