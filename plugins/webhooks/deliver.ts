import type { Logger, WebhookConfig } from 'userbot-gateway/plugin'
import { nextAttemptAt, retryAfterMs } from './backoff'
import { Leases } from './leases'
import { logWebhookFailure } from './log-failure'
import { readSome, type SigningKeys, signingKeys } from './response'
import { signatureHeader } from './secrets'
import { SettleQueue } from './settle'
import { cachedLookup, checkUrlForm, type Lookup, pinnedUrl, resolveTarget, UrlRefused } from './ssrf'
import type { Attempt, Claimed, WebhookStore } from './store'

/** Endpoint-and-userbot pairs one process sends to at once (one delivery at a time each). */
const MAX_IN_FLIGHT = 64
/**
 * Deliveries of one pair claimed together, sent one after another. Each claim costs a statement
 * and a turn of the event loop during which the pair sends nothing: a long run amortizes it. The
 * run's leases are renewed while it lasts (leases.ts), so its length does not lengthen them.
 */
const RUN = 128
/** What of a response's body is kept for the deliveries listing. */
const KEPT_BODY_BYTES = 1024
/** A lease outlives an attempt's timeout by this much; then another gateway may take the delivery. */
const LEASE_MARGIN_MS = 30_000
/** How long a host name's resolution is reused (each attempt still checks and pins the address). */
const LOOKUP_TTL_MS = 5_000

const isDelivered = (r: Attempt) => r.code !== null && r.code >= 200 && r.code < 300

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
	/** Opened signing keys: opened and decoded once, not at every attempt. */
	private readonly keys: SigningKeys
	private readonly settler: SettleQueue
	private readonly leases: Leases
	/** Host names' addresses for a few seconds; every address is still checked at each attempt. */
	private readonly lookup: Lookup

	constructor(private readonly opts: DelivererOptions) {
		this.settler = new SettleQueue(opts.store, this.owner)
		this.keys = signingKeys(opts.dataKey)
		this.leases = new Leases({
			store: opts.store,
			owner: this.owner,
			leaseMs: opts.config.timeoutMs + LEASE_MARGIN_MS,
			now: opts.now,
			log: opts.log,
		})
		this.lookup = cachedLookup(opts.lookup, LOOKUP_TTL_MS, opts.now)
	}

	start(): void {
		this.timer = setInterval(() => this.kick(), this.opts.config.pollMs)
		this.leases.start()
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
		this.leases.stop()
		this.stopping.abort()
		await Promise.all([...this.attempts])
		await this.opts.store.release(this.owner).catch(() => undefined)
	}

	private async claimLoop(): Promise<void> {
		do {
			// The I/O waiting goes first: without this, attempts that end at once (a refused address,
			// a receiver answering within the turn) claim again and again in microtasks alone, and the
			// HTTP server of this very process never gets its turn.
			await new Promise<void>((resolve) => setImmediate(resolve))
			this.again = false
			const free = MAX_IN_FLIGHT - this.inFlight
			if (free <= 0 || this.closed) return
			let claimed: Claimed[]
			try {
				const leaseMs = this.opts.config.timeoutMs + LEASE_MARGIN_MS
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
		this.leases.hold(claimed.map((c) => c.id))
		const run = this.sendRun(claimed)
			.catch((err: unknown) => {
				logWebhookFailure(this.opts.log, 'webhook delivery', err)
			})
			.finally(() => {
				for (const c of claimed) this.leases.drop(c.id)
				this.inFlight--
				this.attempts.delete(run)
				this.kick()
			})
		this.attempts.add(run)
	}

	/**
	 * A delivered event's outcome is queued for the group commit and the pair's next event goes at
	 * once: the order the receiver sees is the order of the sends, and a crash before the write only
	 * sends the event again (at least once). An event not delivered waits for its write, then stops
	 * the run. The run ends when every write of it is done.
	 */
	private async sendRun(claimed: Claimed[]): Promise<void> {
		const writes: Promise<void>[] = []
		let lost = false
		let succeeded = false
		/** How many of the run were tried: the rest goes back. */
		let tried = 0
		try {
			for (const c of claimed) {
				if (this.closed || lost || this.leases.lost(c.id)) break
				const result = await this.send(c)
				if (result === null) break
				tried++
				this.leases.drop(c.id)
				if (!isDelivered(result)) {
					await this.failed(c, result)
					break
				}
				const written = this.settler.settle({ id: c.id, attempt: result, outcome: { status: 'delivered' } })
				if (c.failingSince !== null && !succeeded) {
					succeeded = true
					if (await written) await this.opts.store.endpointSucceeded(c.endpointId)
				}
				writes.push(
					written.then(
						(ok) => {
							if (!ok) lost = true
						},
						(err: unknown) => {
							// Unwritten, the delivery stays leased and is sent again once the lease ends.
							lost = true
							logWebhookFailure(this.opts.log, 'writing webhook outcomes', err)
						},
					),
				)
			}
		} finally {
			await Promise.all(writes)
			const rest = claimed.slice(tried).map((r) => r.id)
			if (!this.closed) await this.opts.store.release(this.owner, rest)
		}
	}

	/** Writes an attempt that was not delivered: tried again later, or failed for good. */
	private async failed(c: Claimed, result: Attempt & { retryAfter: number | null }): Promise<void> {
		const { config, store, now } = this.opts
		const first = c.firstAttemptAt ?? result.at
		const gaveUp = result.at - first >= config.retryForMs
		const outcome = gaveUp
			? ({ status: 'failed' } as const)
			: ({
					status: 'pending',
					nextAt: nextAttemptAt(c.attempts + 1, result, config, this.opts.random),
				} as const)
		if (!(await this.settler.settle({ id: c.id, attempt: result, outcome }))) return
		const disabled = await store.endpointFailed(c.endpointId, result.at, now() - config.disableAfterMs)
		if (disabled !== null) this.opts.onDisabled(disabled, c.endpointId)
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
			target = await resolveTarget(url, config, this.lookup)
		} catch (err) {
			if (err instanceof UrlRefused) return failed(`refused: ${err.message}`)
			throw err
		}
		const secrets = [await this.keys.get(c.endpointId, c.secret)]
		if (c.previousSecret && c.previousSecretUntil !== null && c.previousSecretUntil > at)
			secrets.push(await this.keys.get(c.endpointId, c.previousSecret))
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
}
