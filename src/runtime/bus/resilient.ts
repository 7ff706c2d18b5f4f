import type { Logger } from '../../common/util/logger'
import type { Bus } from './connection'

/**
 * A consumer or watcher on the bus that comes back by itself. The NATS client resumes core
 * subscriptions after a reconnect, but a JetStream consumer or a bucket's watcher lives on the
 * server: one restarted (a crash, an upgrade) has forgotten it, and the client may go on waiting
 * for messages that never come. So each is made again, from where it was, after every reconnect,
 * whenever it ends by itself, and when `stalled` says it is stuck (checked by `check`, called
 * periodically); until that succeeds it is tried again, twice a second at most.
 */
export interface Follower {
	/**
	 * Sets up the subscription; `ended` is to be called when it ends without being stopped. Resolves
	 * with its stop.
	 */
	start(ended: () => void): Promise<() => void>
	/** Whether it is stuck (messages wait on the server, none came): made again at the next `check`. */
	stalled?(): Promise<boolean>
}

const RETRY_MS = 500

/** How long a watch may take to deliver what a bucket holds before it is made again. */
export const READY_MS = 5_000

/** Resolves with `ready`, or rejects after `ms` (a watch is then stopped and made again; a check goes on). */
export async function within<T>(ready: Promise<T>, ms: number, what: string): Promise<T> {
	let timer: ReturnType<typeof setTimeout> | undefined
	try {
		return await Promise.race([
			ready,
			new Promise<never>((_, reject) => {
				timer = setTimeout(() => reject(new Error(`${what}: not done within ${ms} ms`)), ms)
			}),
		])
	} finally {
		clearTimeout(timer)
	}
}

export class Resilient {
	private stop?: () => void
	private restarting = false
	private closed = false
	private again = false
	private readonly offReconnect: () => void
	/** performance.now() when it went down (undefined: it runs). */
	downSince?: number
	/** How many times it was made again. */
	restarts = 0

	constructor(
		private readonly name: string,
		private readonly follower: Follower,
		bus: Pick<Bus, 'onReconnect'>,
		private readonly log: Logger,
		/** Called after each start but the first (what was missed meanwhile may need telling). */
		private readonly onRestart: () => void = () => {},
	) {
		this.offReconnect = bus.onReconnect(() => this.restart())
	}

	get up(): boolean {
		return this.stop !== undefined && this.downSince === undefined
	}

	/** The first start, tried again for up to `ms` (a server that just restarted may not serve it yet). */
	async open(ms = 30_000): Promise<void> {
		const end = performance.now() + ms
		for (;;) {
			try {
				this.stop = await this.follower.start(() => this.ended())
				return
			} catch (err) {
				if (this.closed || performance.now() + RETRY_MS > end) throw err
				this.log.warn('bus subscription not made yet: trying again', { what: this.name, error: String(err) })
				await Bun.sleep(RETRY_MS)
			}
		}
	}

	private ended() {
		if (this.closed) return
		this.log.warn('bus subscription ended: making it again', { what: this.name })
		this.restart()
	}

	/** Stops it and makes it again, retrying until it succeeds (or it is closed). */
	restart(): void {
		if (this.closed) return
		this.downSince ??= performance.now()
		if (this.restarting) {
			this.again = true
			return
		}
		this.restarting = true
		void this.run().finally(() => {
			this.restarting = false
		})
	}

	private async run() {
		let told = false
		for (;;) {
			this.again = false
			const old = this.stop
			this.stop = undefined
			try {
				old?.()
			} catch {
				// Already gone with the old connection.
			}
			if (this.closed) return
			try {
				this.stop = await this.follower.start(() => this.ended())
				if (this.closed) return this.stop()
				if (this.again) continue
				this.downSince = undefined
				this.restarts++
				this.log.info('bus subscription made again', { what: this.name })
				this.onRestart()
				return
			} catch (err) {
				if (!told)
					this.log.warn('bus subscription not made yet: trying again', {
						what: this.name,
						error: String(err),
					})
				told = true
				await Bun.sleep(RETRY_MS)
			}
		}
	}

	/** Makes it again if it is stuck. */
	async check(): Promise<void> {
		if (this.closed || this.restarting || !this.stop) return
		const stalled = await this.follower.stalled?.().catch(() => false)
		if (stalled && !this.closed) {
			this.log.warn('bus subscription stalled: making it again', { what: this.name })
			this.restart()
		}
	}

	close(): void {
		this.closed = true
		this.offReconnect()
		const stop = this.stop
		this.stop = undefined
		try {
			stop?.()
		} catch {
			// Already gone.
		}
	}
}
