import { CommandError, TdError } from 'userbot-gateway/plugin'
import { SessionsErrors as E } from './errors'

/**
 * Telegram refuses to end other sessions from one logged in less than 24 hours ago, with a code-406
 * error the gateway would hide as `request failed`. This says what it means; anything else is
 * thrown as it came.
 */
export function explainTooNew(err: unknown): never {
	if (err instanceof TdError && err.message === 'FRESH_RESET_AUTHORISATION_FORBIDDEN') {
		throw new CommandError(E.SESSION_TOO_NEW)
	}
	throw err
}
