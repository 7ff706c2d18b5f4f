import type { Logger } from 'userbot-gateway/plugin'
import { type AttemptResult, isDelivered } from './attempt'
import type { Leases } from './leases'
import { logWebhookFailure } from './log-failure'
import type { Claimed, Settled } from './store'

export interface LaneDeps {
	leases: Leases
	/** One attempt; null when this process is stopping (the delivery goes back untried). */
	send(c: Claimed): Promise<AttemptResult | null>
	/**
	 * Queues an outcome for the group commit: resolves with the ids its batch wrote (an id missing:
	 * that lease was gone).
	 */
	settle(item: Settled): Promise<ReadonlySet<number>>
	/** Writes an attempt that was not delivered. */
	failed(c: Claimed, result: AttemptResult): Promise<void>
	/** The endpoint answered after failing. */
	succeeded(endpointId: number): Promise<void>
	/** Gives back leases untried. */
	release(ids: number[]): Promise<void>
	/** The lane stopped and gave back what it had not tried. */
	stopped(lane: Lane): void
	closed(): boolean
	log: Logger
}

/**
 * One endpoint-and-userbot pair's deliveries leased to this process, sent one after another in id
 * order (the pair's order). A delivered event's outcome is queued for the group commit and the next
 * goes at once: the receiver sees them in order, and a crash before the write only sends the event
 * again (at least once). At the first that is not delivered, or a lease or an outcome's write lost,
 * the lane stops: its outcome written, the rest given back untried, for a claim to take in order.
 */
export class Lane {
	/** The highest delivery id given to this lane: the pair's later ones are not in its hands. */
	lastId = 0
	stopped = false
	/** Sending (its loop is running). */
	busy = false
	private readonly queue: Claimed[] = []
	private loop: Promise<void> = Promise.resolve()
	private readonly writes = new Set<Promise<void>>()
	/** The lane's deliveries in each batch of outcomes not yet written (one check per batch, not per delivery). */
	private readonly inBatch = new Map<Promise<ReadonlySet<number>>, number[]>()
	private succeeded = false

	constructor(
		readonly key: string,
		private readonly deps: LaneDeps,
	) {}

	/** Deliveries of this pair leased to this process, in id order, after those it has. */
	push(run: readonly Claimed[]): void {
		for (const c of run) {
			this.queue.push(c)
			if (c.id > this.lastId) this.lastId = c.id
		}
		this.deps.leases.hold(run.map((c) => c.id))
		if (this.busy) return
		this.busy = true
		this.loop = this.run()
	}

	/** Resolves when the lane sends nothing and every outcome it queued is written. */
	async idle(): Promise<void> {
		await this.loop
		await Promise.all([...this.writes])
	}

	/** No more deliveries for this lane (an outcome's write failed or found the lease gone). */
	private stop(): void {
		if (this.stopped) return
		this.stopped = true
		// A busy lane tells once it has given back its rest.
		if (!this.busy) this.deps.stopped(this)
	}

	private async run(): Promise<void> {
		/** Stopped by the lane itself: not delivered, a lease lost, this process stopping. */
		let halt = false
		try {
			while (this.queue.length > 0 && !this.stopped) {
				const c = this.queue[0] as Claimed
				halt = this.deps.closed() || this.deps.leases.lost(c.id)
				if (halt) break
				const result = await this.deps.send(c)
				halt = result === null
				if (result === null) break
				this.queue.shift()
				this.deps.leases.drop(c.id)
				if (!isDelivered(result)) {
					halt = true
					await this.deps.failed(c, result)
					break
				}
				const batch = this.deps.settle({ id: c.id, attempt: result, outcome: { status: 'delivered' } })
				this.track(batch, c.id)
				if (c.failingSince !== null && !this.succeeded) {
					this.succeeded = true
					if ((await batch).has(c.id)) await this.deps.succeeded(c.endpointId)
				}
			}
		} catch (err) {
			halt = true
			logWebhookFailure(this.deps.log, 'webhook delivery', err)
		}
		if (!halt && !this.stopped) {
			this.busy = false
			return
		}
		// Stopped: the outcomes written first, then the rest given back, so a claim finds it in order.
		this.stopped = true
		await Promise.all([...this.writes])
		const rest = this.queue.splice(0).map((c) => c.id)
		for (const id of rest) this.deps.leases.drop(id)
		await this.deps.release(rest).catch((err: unknown) => {
			logWebhookFailure(this.deps.log, 'giving back webhook leases', err)
		})
		this.busy = false
		this.deps.stopped(this)
	}

	private track(batch: Promise<ReadonlySet<number>>, id: number): void {
		const ids = this.inBatch.get(batch)
		if (ids) {
			ids.push(id)
			return
		}
		const mine = [id]
		this.inBatch.set(batch, mine)
		const write = batch.then(
			(written) => {
				if (!mine.every((i) => written.has(i))) this.stop()
			},
			(err: unknown) => {
				// Unwritten, the delivery stays leased and is sent again once the lease ends.
				logWebhookFailure(this.deps.log, 'writing webhook outcomes', err)
				this.stop()
			},
		)
		this.writes.add(write)
		void write.finally(() => {
			this.writes.delete(write)
			this.inBatch.delete(batch)
		})
	}
}
