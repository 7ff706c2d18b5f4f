export interface BackoffOptions {
	/** First wait, ms (default 250). */
	initialDelayMs?: number
	/** Longest wait, ms (default 10,000). */
	maxDelayMs?: number
	/** Attempts in a row before giving up (default: no limit). */
	retries?: number
}

/** Exponential backoff with full jitter: a fleet of clients does not come back in step. */
export function backoffDelay(attempt: number, opts: BackoffOptions = {}, random = Math.random): number {
	const initial = opts.initialDelayMs ?? 250
	const max = opts.maxDelayMs ?? 10_000
	const ceiling = Math.min(max, initial * 2 ** Math.min(attempt, 30))
	return Math.round(ceiling / 2 + (random() * ceiling) / 2)
}
