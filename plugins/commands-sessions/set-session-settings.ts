import {
	CommandError,
	defineCommand,
	fields,
	optionalBool,
	RuntimeError,
	TdError,
	wordError,
} from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { SessionsErrors as E } from './errors'
import { sessionIdField } from './session-id'

const SetSessionSettingsInput = v.pipe(
	fields({
		session_id: sessionIdField,
		can_accept_calls: optionalBool('can_accept_calls'),
		can_accept_secret_chats: optionalBool('can_accept_secret_chats'),
	}),
	v.check(
		(o) => o.can_accept_calls !== undefined || o.can_accept_secret_chats !== undefined,
		E.SESSION_FLAG_REQUIRED,
	),
)

/**
 * `set_session_settings`: `toggleSessionCanAcceptCalls`, then `toggleSessionCanAcceptSecretChats`,
 * each only for a flag that is present (docs/tdlib-mapping.md#sessions-and-privacy); result `{_: 'ok'}`.
 *
 * TDLib has no call for both at once, so the first may apply and the second fail. That is not
 * hidden: the error event carries the second call's error and `result: {applied: {can_accept_calls}}`,
 * what is now in force (after a deadline or a runtime restart, the second may have applied too). A first call that fails is its error alone (nothing was changed).
 */
export const setSessionSettings = defineCommand({
	name: 'set_session_settings',
	policy: { action: 'write' },
	summary: 'Whether a session may accept calls and secret chats.',
	result: {
		description:
			'`ok`; when the second change failed after the first applied, the error carries `{applied: {can_accept_calls}}`.',
		tdlib: 'ok',
	},
	examples: [{ session_id: '1234567890123456789', can_accept_calls: false }],
	methods: ['toggleSessionCanAcceptCalls', 'toggleSessionCanAcceptSecretChats'],
	input: SetSessionSettingsInput,
	async run(input, ctx) {
		const applied: { can_accept_calls?: boolean } = {}
		if (input.can_accept_calls !== undefined) {
			await ctx.invoke({
				_: 'toggleSessionCanAcceptCalls',
				session_id: input.session_id,
				can_accept_calls: input.can_accept_calls,
			})
			applied.can_accept_calls = input.can_accept_calls
		}
		if (input.can_accept_secret_chats !== undefined) {
			try {
				await ctx.invoke({
					_: 'toggleSessionCanAcceptSecretChats',
					session_id: input.session_id,
					can_accept_secret_chats: input.can_accept_secret_chats,
				})
			} catch (err) {
				// TDLib's refusal, or the runtime's (a deadline, a restart): worded as the gateway words them,
				// with what is in force. Anything else is unexpected, and goes to the gateway as it came.
				const known = err instanceof TdError || err instanceof RuntimeError
				if (applied.can_accept_calls === undefined || !known) throw err
				throw new CommandError(wordError(err), { applied })
			}
		}
		return { _: 'ok' }
	},
})
