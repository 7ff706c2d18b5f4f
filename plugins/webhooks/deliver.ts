import type { Logger, WebhookConfig } from 'userbot-gateway/plugin'
import { nextAttemptAt, retryAfterMs } from './backoff'
import { logWebhookFailure } from './log-failure'
import { openSecret, signatureHeader } from './secrets'
import { checkUrlForm, type Lookup, pinnedUrl, resolveTarget, UrlRefused } from './ssrf'
import type { Attempt, Claimed, WebhookStore } from './store'

/** Endpoint-and-userbot pairs one process sends to at once (one delivery at a time each). */
const MAX_IN_FLIGHT = 64
/** Deliveries of one pair claimed together, sent one after another. */
const RUN = 16
/** What of a response's body is kept for the deliveries listing. */
const KEPT_BODY_BYTES = 1024
/** A lease outlives the attempt's timeout by this much; then another gateway may take the delivery. */
const LEASE_MARGIN_MS = 30_000

export interface DelivererOptions {
	store: WebhookStore
	config: WebhookConfig
	dataKey: string
	log: Logger
	now: () => number
	random: () => number
	lookup: Lookup
	/** The endpoint was disabled after failing too long: its company's owner is told. */
	onDisabled(companyId: number, endpointId: number): void
}

/**
 * Sends what the outbox holds. It claims due deliveries (one statement, a lease each), sends each
 * signed, and writes the outcome: 2xx delivered; anything else, a timeout or a refused address
 * retried with full-jitter backoff (Retry-After on 429 and 503 honoured) until WEBHOOK_RETRY_FOR
 * has passed since the first attempt, then failed and kept. It looks again at once when an attempt
 * ends or an event is stored here, and every WEBHOOK_POLL for what other gateways stored and for
 * retries that came due.
 */
export class Deliverer {
	readonly owner = `gw-${crypto.randomUUID()}`
	private inFlight = 0
	private claiming = false
	private again = false
	private closed = false
	private timer: ReturnType<typeof setInterval> | undefined
	private readonly stopping = new AbortController()
	private readonly attempts = new Set<Promise<void>>()
	private readonly secrets = new Map<string, string>()

	constructor(private readonly opts: DelivererOptions) {}

	start(): void {
		this.timer = setInterval(() => this.kick(), this.opts.config.pollMs)
		this.kick()
	}

	/** Something may be due: claim what can be sent now. */
	kick(): void {
		if (this.closed) return
		if (this.claiming) {
			this.again = true
			return
		}
		this.claiming = true
		void this.claimLoop().finally(() => {
			this.claiming = false
		})
	}

	/** Stops: attempts under way are abandoned untried and their leases given back. */
	async close(): Promise<void> {
		this.closed = true
		clearInterval(this.timer)
		this.stopping.abort()
		await Promise.all([...this.attempts])
		await this.opts.store.release(this.owner).catch(() => undefined)
	}

	private async claimLoop(): Promise<void> {
		do {
			this.again = false
			const free = MAX_IN_FLIGHT - this.inFlight
			if (free <= 0 || this.closed) return
			let claimed: Claimed[]
			try {
				// The lease covers the whole run at its worst (every attempt timing out).
				const leaseMs = this.opts.config.timeoutMs * RUN + LEASE_MARGIN_MS
				claimed = await this.opts.store.claim(this.owner, free, this.opts.now(), leaseMs, RUN)
			} catch (err) {
				logWebhookFailure(this.opts.log, 'claiming webhook deliveries', err)
				return
			}
			const runs = new Map<string, Claimed[]>()
			for (const c of claimed) {
				const key = `${c.endpointId}:${c.userbotId}`
				runs.set(key, [...(runs.get(key) ?? []), c])
			}
			for (const run of runs.values()) this.launch(run)
			if (runs.size === free) this.again = true
		} while (this.again && !this.closed)
	}

	/** Sends a pair's run in order; at the first that is not delivered, the rest goes back. */
	private launch(claimed: Claimed[]): void {
		this.inFlight++
		const run = (async () => {
			let i = 0
			try {
				for (; i < claimed.length; i++) {
					if (this.closed || !(await this.attempt(claimed[i] as Claimed))) break
				}
			} finally {
				const rest = claimed.slice(i + 1).map((r) => r.id)
				if (!this.closed) await this.opts.store.release(this.owner, rest)
			}
		})()
			.catch((err: unknown) => {
				logWebhookFailure(this.opts.log, 'webhook delivery', err)
			})
			.finally(() => {
				this.inFlight--
				this.attempts.delete(run)
				this.kick()
			})
		this.attempts.add(run)
	}

	/** One attempt and its outcome written; true when it was delivered. */
	private async attempt(c: Claimed): Promise<boolean> {
		const result = await this.send(c)
		if (result === null) return false
		const { config, store, now } = this.opts
		const ok = result.code !== null && result.code >= 200 && result.code < 300
		if (ok) {
			if (!(await store.settle(c, this.owner, result, { status: 'delivered' }))) return false
			if (c.failingSince !== null) await store.endpointSucceeded(c.endpointId)
			return true
		}
		const first = c.firstAttemptAt ?? result.at
		const gaveUp = result.at - first >= config.retryForMs
		const outcome = gaveUp
			? ({ status: 'failed' } as const)
			: ({
					status: 'pending',
					nextAt: nextAttemptAt(c.attempts + 1, result, config, this.opts.random),
				} as const)
		if (!(await store.settle(c, this.owner, result, outcome))) return false
		const disabled = await store.endpointFailed(c.endpointId, result.at, now() - config.disableAfterMs)
		if (disabled !== null) this.opts.onDisabled(disabled, c.endpointId)
		// Failed for good: the pair's next may go (after the rest of this run was given back).
		return false
	}

	/** One attempt; null when this process is stopping (the delivery goes back untried). */
	private async send(c: Claimed): Promise<(Attempt & { retryAfter: number | null }) | null> {
		const { config, now } = this.opts
		const at = now()
		const failed = (error: string) => ({ at, code: null, body: null, error, retryAfter: null })
		let target: string
		let url: URL
		try {
			url = checkUrlForm(c.url, config)
			target = await resolveTarget(url, config, this.opts.lookup)
		} catch (err) {
			if (err instanceof UrlRefused) return failed(`refused: ${err.message}`)
			throw err
		}
		const secrets = [await this.secret(c.endpointId, c.secret)]
		if (c.previousSecret && c.previousSecretUntil !== null && c.previousSecretUntil > at)
			secrets.push(await this.secret(c.endpointId, c.previousSecret))
		const body = `{"type":${JSON.stringify(c.type)},"timestamp":${JSON.stringify(new Date(c.eventAt).toISOString())},"data":${c.data}}`
		const sentAt = new Date(at)
		const signal = AbortSignal.any([this.stopping.signal, AbortSignal.timeout(config.timeoutMs)])
		let response: Response
		try {
			response = await fetch(pinnedUrl(url, target), {
				method: 'POST',
				headers: {
					host: url.host,
					'content-type': 'application/json',
					'user-agent': 'userbot-gateway-webhooks',
					'webhook-id': c.messageId,
					'webhook-timestamp': String(Math.floor(at / 1000)),
					'webhook-signature': signatureHeader(secrets, c.messageId, sentAt, body),
				},
				body,
				redirect: 'manual',
				signal,
				...(url.protocol === 'https:' ? { tls: { serverName: url.hostname } } : {}),
			})
		} catch {
			if (this.stopping.signal.aborted) return null
			return failed(signal.aborted ? 'timeout' : 'connection failed')
		}
		const kept = await readSome(response, KEPT_BODY_BYTES, signal)
		if (this.stopping.signal.aborted) return null
		return {
			at,
			code: response.status,
			body: kept,
			error: null,
			retryAfter: retryAfterMs(response.status, response.headers.get('retry-after'), at),
		}
	}

	private async secret(endpointId: number, sealed: string): Promise<string> {
		let plain = this.secrets.get(sealed)
		if (plain === undefined) {
			plain = await openSecret(this.opts.dataKey, endpointId, sealed)
			if (this.secrets.size > 10_000) this.secrets.clear()
			this.secrets.set(sealed, plain)
		}
		return plain
	}
}

/** At most `max` bytes of the body as text (then the rest is not read); null when there is none. */
async function readSome(response: Response, max: number, signal: AbortSignal): Promise<string | null> {
	const stream = response.body
	if (!stream) return null
	const reader = stream.getReader()
	const chunks: Uint8Array[] = []
	let size = 0
	try {
		while (size < max && !signal.aborted) {
			const { done, value } = await reader.read()
			if (done) break
			chunks.push(value)
			size += value.byteLength
		}
	} catch {
		// A body cut off is kept as far as it came.
	} finally {
		void reader.cancel().catch(() => undefined)
	}
	if (size === 0) return null
	return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, max))
}
