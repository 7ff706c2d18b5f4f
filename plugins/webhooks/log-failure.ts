import { type Logger, storageFailure } from 'userbot-gateway/plugin'

/**
 * Logs a failure of the webhooks' background work. The database being down or full is logged as
 * the rest of the service logs it (`storage failure`, with what was being done and which failure),
 * without the driver's error, whose text carries the whole SQL statement; anything else with it.
 */
export function logWebhookFailure(log: Logger, what: string, err: unknown): void {
	const failure = storageFailure(err)
	if (failure) log.error('storage failure', { during: what, failure })
	else log.error(`${what} failed`, { error: err instanceof Error ? err : String(err) })
}
