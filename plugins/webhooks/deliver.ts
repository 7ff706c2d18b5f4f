import type { Logger } from 'userbot-gateway/plugin'
import { type AttemptResult, Sender } from './attempt'
import { nextAttemptAt } from './backoff'
import type { Recorded } from './direct'
import { Lane } from './lanes'
import { Leases } from './leases'
import { logWebhookFailure } from './log-failure'
import type { EventRow } from './outbox'
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
	private claiming = false
	private again = false
	private closed = false
	private timer: ReturnType<typeof setInterval> | undefined
	private readonly stopping = new AbortController()
	/**
	 * The pairs this process sends to, by `endpoint:userbot`: each holds the leased deliveries of its
	 * pair in order and sends them one after another. A lane that went idle stays (its pair's next
	 * events go in leased to it, no claim); one that stopped (not delivered, a lease lost) is removed.
	 */
	private readonly lanes = new Map<string, Lane>()
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
			leaseMs: this.leaseMs,
			now: opts.now,
			log: opts.log,
		})
	}

	private get leaseMs(): number {
		return this.opts.config.timeoutMs + LEASE_MARGIN_MS
	}

	start(): void {
		this.timer = setInterval(() => this.kick(), this.opts.config.pollMs)
		this.leases.start()
		this.kick()
	}

	/**
	 * Stores events (store.ts `recordMany`): the deliveries of a pair this process may send to at
	 * once go in leased to it and are sent from memory; the others wait for a claim.
	 */
	async record(rows: readonly EventRow[]): Promise<void> {
		/** The lane each pair was looked at with: the leased rows go to it only if it is still the one. */
		const seen = new Map<string, Lane | null>()
		// New lanes only while fewer than MAX_IN_FLIGHT pairs are being sent to.
		let room = this.closed ? 0 : MAX_IN_FLIGHT - this.sending()
		const recorded = await this.opts.store.recordMany(rows, {
			owner: this.owner,
			until: this.opts.now() + this.leaseMs,
			after: (endpointId, userbotId) => {
				const key = `${endpointId}:${userbotId}`
				const lane = this.lanes.get(key)
				if (lane && !lane.stopped) {
					seen.set(key, lane)
					return lane.lastId
				}
				if (room <= 0) return null
				room--
				seen.set(key, null)
				return 0
			},
		})
		await this.take(recorded, seen)
	}

	/** The leased deliveries of `recorded` to their lanes, or back to the outbox when a lane changed meanwhile. */
	private async take(recorded: Recorded, seen: Map<string, Lane | null>): Promise<void> {
		let ready: Claimed[] = []
		if (recorded.leased.length > 0) {
			try {
				ready = await this.opts.store.complete(recorded.leased, recorded.endpoints)
			} catch (err) {
				// Not sent now: the leases end and a claim (here or elsewhere) takes them.
				logWebhookFailure(this.opts.log, 'reading webhook endpoints', err)
			}
		}
		const back: number[] = []
		const fresh: Claimed[] = []
		for (const c of ready) {
			const key = `${c.endpointId}:${c.userbotId}`
			const lane = this.lanes.get(key) ?? null
			if (this.closed || lane !== seen.get(key) || lane?.stopped) back.push(c.id)
			else fresh.push(c)
		}
		this.accept(fresh)
		if (back.length > 0) await this.opts.store.release(this.owner, back)
		if (recorded.waiting || back.length > 0) this.kick()
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
		await Promise.all([...this.lanes.values()].map((l) => l.idle()))
		await this.opts.store.release(this.owner).catch(() => undefined)
	}

	/** Lanes sending now. */
	private sending(): number {
		let n = 0
		for (const lane of this.lanes.values()) if (lane.busy) n++
		return n
	}

	private async claimLoop(): Promise<void> {
		do {
			// The I/O waiting goes first: without this, attempts that end at once (a refused address,
			// a receiver answering within the turn) claim again and again in microtasks alone, and the
			// HTTP server of this very process never gets its turn.
			await new Promise<void>((resolve) => setImmediate(resolve))
			this.again = false
			const free = MAX_IN_FLIGHT - this.sending()
			if (free <= 0 || this.closed) return
			let claimed: Claimed[]
			try {
				claimed = await this.opts.store.claim(this.owner, free, this.opts.now(), this.leaseMs, RUN)
			} catch (err) {
				logWebhookFailure(this.opts.log, 'claiming webhook deliveries', err)
				return
			}
			const pairs = this.accept(claimed)
			if (pairs === free) this.again = true
		} while (this.again && !this.closed)
	}

	/** Deliveries leased to this process, in id order, to their pairs' lanes: the number of pairs. */
	private accept(claimed: Claimed[]): number {
		const runs = new Map<string, Claimed[]>()
		for (const c of claimed) {
			const key = `${c.endpointId}:${c.userbotId}`
			const run = runs.get(key)
			if (run) run.push(c)
			else runs.set(key, [c])
		}
		for (const [key, run] of runs) {
			let lane = this.lanes.get(key)
			if (!lane || lane.stopped) {
				lane = new Lane(key, {
					leases: this.leases,
					send: (c) => this.sender.send(c, c, this.stopping.signal),
					settle: (item) => this.settler.add(item),
					failed: (c, result) => this.failed(c, result),
					succeeded: (endpointId) => this.opts.store.endpointSucceeded(endpointId),
					release: (ids) => (this.closed ? Promise.resolve() : this.opts.store.release(this.owner, ids)),
					stopped: (stopped) => {
						if (this.lanes.get(key) === stopped) this.lanes.delete(key)
						this.kick()
					},
					log: this.opts.log,
					closed: () => this.closed,
				})
				this.lanes.set(key, lane)
			}
			lane.push(run)
		}
		return runs.size
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
}
