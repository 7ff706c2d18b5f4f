import type { Logger } from 'userbot-gateway/plugin'
import { logWebhookFailure } from './log-failure'
import type { WebhookStore } from './store'

/**
 * The leases of the deliveries this process claimed and has not tried yet, kept alive. A lease is
 * short (one attempt's timeout and a margin), so a crashed gateway's deliveries pass to another
 * within that time; a run of many deliveries keeps its own by renewing them all together, in one
 * statement, a few times per lease. A lease that could not be renewed (another gateway took it:
 * this process was stalled past its end) is lost: the run stops before sending it.
 */
export class Leases {
	private readonly held = new Set<number>()
	private readonly gone = new Set<number>()
	private timer: ReturnType<typeof setInterval> | undefined
	private renewing = false

	constructor(
		private readonly opts: {
			store: WebhookStore
			owner: string
			leaseMs: number
			now: () => number
			log: Logger
		},
	) {}

	start(): void {
		this.timer = setInterval(() => void this.renew(), Math.max(50, Math.floor(this.opts.leaseMs / 4)))
	}

	stop(): void {
		clearInterval(this.timer)
	}

	hold(ids: readonly number[]): void {
		for (const id of ids) this.held.add(id)
	}

	/** The delivery was tried or given back: its lease is no longer this process's to keep. */
	drop(id: number): void {
		this.held.delete(id)
		this.gone.delete(id)
	}

	/** True when the lease could not be kept: someone else may be sending the delivery. */
	lost(id: number): boolean {
		return this.gone.has(id)
	}

	private async renew(): Promise<void> {
		if (this.renewing || this.held.size === 0) return
		this.renewing = true
		const ids = [...this.held]
		try {
			const kept = await this.opts.store.renew(this.opts.owner, ids, this.opts.now() + this.opts.leaseMs)
			for (const id of ids) if (!kept.has(id) && this.held.has(id)) this.gone.add(id)
		} catch (err) {
			// Not renewed: the leases run on to their end, as they would without renewing.
			logWebhookFailure(this.opts.log, 'renewing webhook leases', err)
		} finally {
			this.renewing = false
		}
	}
}
