import { GatewayErrors as E } from '../../common/wire/errors'
import type { AppContext } from '../context'

/**
 * The guess limit as commands meet it (those that declare `checksSecret`): each try at the userbot's
 * 2FA password or codes is counted in the same atomic step that checks the limit, before the command
 * runs, so concurrent tries cannot all pass; a try that was right is given back. Past the limit the
 * command is answered `too many password or code attempts, try again later` with `result:
 * {retry_after}` (seconds).
 */
export function guessCheck(ctx: AppContext) {
	const { log } = ctx
	return {
		/** The refusal to answer (past the limit, or the count could not be made), else null. */
		async take(userbotId: number): Promise<{ error: string; result?: unknown } | null> {
			try {
				const wait = await ctx.auth.guesses.take(userbotId)
				return wait > 0 ? { error: E.TOO_MANY_GUESSES, result: { retry_after: wait } } : null
			} catch (err) {
				log.error('guess limit failed', { userbotId, error: err instanceof Error ? err : String(err) })
				return { error: E.INTERNAL }
			}
		},
		async giveBack(userbotId: number): Promise<void> {
			try {
				await ctx.auth.guesses.giveBack(userbotId)
			} catch (err) {
				log.warn('guess not given back', { userbotId, error: err instanceof Error ? err : String(err) })
			}
		},
	}
}
