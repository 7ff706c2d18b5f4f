import type { Logger } from 'userbot-gateway/plugin'
import { type AttemptResult, isDelivered, Sender } from './attempt'
import { nextAttemptAt } from './backoff'
import { Leases } from './leases'
import { logWebhookFailure } from './log-failure'
import type { WebhookConfig } from './settings'
import { SettleQueue } from './settle'
import type { Lookup } from './ssrf'
import type { Claimed, WebhookStore } from './store'

/** Endpoint-and-userbot pairs one process sends to at once (one delivery at a time each). */
const MAX_IN_FLIGHT = 64
/**
 * Deliveries of one pair claimed together, sent one after another. Each claim costs a statement
 * and a turn of the event loop during which the pair sends nothing: a long run amortizes it. The
 * run's leases are renewed while it lasts (leases.ts), so its length does not lengthen them.
 */
const RUN = 128
/** A lease outlives an attempt's timeout by this much; then another gateway may take the delivery. */
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
	/** One signed attempt (attempt.ts, shared with the JetStream outbox). */
	private readonly sender: Sender
	private readonly settler: SettleQueue
	private readonly leases: Leases

	constructor(private readonly opts: DelivererOptions) {
		this.settler = new SettleQueue(opts.store, this.owner)
		this.sender = new Sender({
			config: opts.config,
			dataKey: opts.dataKey,
			lookup: opts.lookup,
			now: opts.now,
		})
		this.leases = new Leases({
			store: opts.store,
			owner: this.owner,
			leaseMs: opts.config.timeoutMs + LEASE_MARGIN_MS,
			now: opts.now,
			log: opts.log,
		})
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
	private async failed(c: Claimed, result: AttemptResult): Promise<void> {
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
	private send(c: Claimed): Promise<AttemptResult | null> {
		return this.sender.send(c, c, this.stopping.signal)
	}
}
