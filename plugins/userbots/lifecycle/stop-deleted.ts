import { type Logger, type TelegramRuntime, within } from 'userbot-gateway/plugin'

/**
 * Stops the client of a userbot being deleted, its TDLib folders removed: logged out of Telegram
 * first when it was logged in (`start` brings its client up for that, if it was not running).
 * Each part has a deadline; when the log-out cannot finish (offline), the client is closed anyway
 * and the log warns that the Telegram session may still be active. Never throws.
 */
export async function stopDeletedClient(opts: {
	runtime: TelegramRuntime
	log: Logger
	userbotId: number
	authorized: boolean
	start: () => Promise<unknown>
	deadlineMs: number
}): Promise<void> {
	const { runtime, log, userbotId, authorized, deadlineMs } = opts
	if (authorized)
		await within(
			opts.start().catch(() => ''),
			deadlineMs,
			'',
		)
	const stop = (logOut: boolean) =>
		within(
			runtime.stopClient(userbotId, { logOut, removeData: true }).then(() => true),
			deadlineMs,
			false,
		).catch((err: unknown) => {
			log.warn('stopping a deleted userbot failed', { userbotId, logOut, error: String(err) })
			return false
		})
	if (!(await stop(authorized)) && authorized) {
		log.warn(
			'could not log a deleted userbot out of Telegram; its client is closed, but the Telegram session may still be active',
			{ userbotId },
		)
		await stop(false)
	}
}
