import type { WebhookConfig } from './settings'

/**
 * Exponential backoff with full jitter (the AWS architecture blog's "full jitter"): the wait before
 * attempt n+1 is uniform in [0, min(cap, base * 2^(n-1))], so retries of many deliveries that failed
 * together spread out instead of hammering the receiver in waves. A 429 or 503 that says
 * `Retry-After` is taken at its word (capped like the backoff), never sooner.
 */
export function backoffMs(
	attempts: number,
	config: Pick<WebhookConfig, 'retryBaseMs' | 'retryCapMs'>,
	random: () => number,
): number {
	const ceiling = Math.min(
		config.retryCapMs,
		config.retryBaseMs * 2 ** Math.min(Math.max(attempts - 1, 0), 40),
	)
	return Math.floor(random() * ceiling)
}

export function nextAttemptAt(
	attempts: number,
	result: { at: number; retryAfter: number | null },
	config: Pick<WebhookConfig, 'retryBaseMs' | 'retryCapMs'>,
	random: () => number,
): number {
	const wait =
		result.retryAfter !== null
			? Math.min(result.retryAfter, config.retryCapMs)
			: backoffMs(attempts, config, random)
	return result.at + wait
}

/** `Retry-After` of a 429 or 503, in ms from `now` (seconds or an HTTP date); null otherwise. */
export function retryAfterMs(status: number, header: string | null, now: number): number | null {
	if ((status !== 429 && status !== 503) || header === null) return null
	const text = header.trim()
	if (/^\d{1,10}$/.test(text)) return Number(text) * 1000
	const date = Date.parse(text)
	if (Number.isNaN(date)) return null
	return Math.max(0, date - now)
}
