import { type Clock, wallClock } from '../flood/clock'

/**
 * Whether each TDLib client of a supervisor child still answers: every `intervalMs` a client that
 * has no probe out gets a cheap local request (`testCallEmpty`: TDLib answers it without the
 * network, in any authorization state); one not answered within `timeoutMs` counts as hung and is
 * handed to `onHung` once (the child host then restarts that client alone). Any answer counts, an
 * error too: a client that says anything is alive. docs/flood-and-health.md#self-healing.
 */
export interface LivenessOptions {
	/** Milliseconds between probes of one client; 0 turns probing off. */
	intervalMs: number
	/** A probe unanswered this long: the client has stopped answering. */
	timeoutMs: number
	/** The pause before the first start again; each hang in a row doubles it, up to `restartMaxMs`. */
	restartMinMs?: number
	restartMaxMs?: number
	/** A client that hangs again more than this long after its last hang gets the short pause again. */
	resetMs?: number
	clock?: Clock
}

export const RESTART_MIN_MS = 250
export const RESTART_MAX_MS = 60_000
export const RESTART_RESET_MS = 60_000

interface Watched {
	probe: () => Promise<unknown>
	/** A probe is out: the next tick leaves this client alone. */
	out: boolean
	cancel?: () => void
}

export class Liveness {
	private readonly watched = new Map<number, Watched>()
	/** Hangs in a row per client, and when the last one was seen. */
	private readonly hangs = new Map<number, { count: number; at: number }>()
	private readonly clock: Clock
	private cancelTick?: () => void
	private closed = false

	constructor(
		private readonly opts: LivenessOptions,
		private readonly onHung: (userbotId: number) => void,
	) {
		this.clock = opts.clock ?? wallClock
	}

	/** Probes `userbotId`'s client from now on (its start settled). */
	watch(userbotId: number, probe: () => Promise<unknown>): void {
		if (this.closed || this.opts.intervalMs <= 0) return
		this.unwatch(userbotId)
		this.watched.set(userbotId, { probe, out: false })
		this.schedule()
	}

	/** Stops probing it (stopped, closed, or being restarted); a probe out is forgotten. */
	unwatch(userbotId: number): void {
		this.watched.get(userbotId)?.cancel?.()
		this.watched.delete(userbotId)
	}

	/** Forgets the client and its hangs (it was stopped on purpose). */
	forget(userbotId: number): void {
		this.unwatch(userbotId)
		this.hangs.delete(userbotId)
	}

	/**
	 * The pause before the next start of a client found hung (or whose start again failed): the
	 * minimum, doubled for each hang in a row, up to the maximum.
	 */
	nextDelay(userbotId: number): number {
		const now = this.clock.now()
		const last = this.hangs.get(userbotId)
		const count = last && now - last.at < (this.opts.resetMs ?? RESTART_RESET_MS) ? last.count : 0
		this.hangs.set(userbotId, { count: count + 1, at: now })
		return Math.min(
			(this.opts.restartMinMs ?? RESTART_MIN_MS) * 2 ** count,
			this.opts.restartMaxMs ?? RESTART_MAX_MS,
		)
	}

	close(): void {
		this.closed = true
		this.cancelTick?.()
		for (const w of this.watched.values()) w.cancel?.()
		this.watched.clear()
	}

	private schedule() {
		if (this.cancelTick || this.closed) return
		this.cancelTick = this.clock.after(this.opts.intervalMs, () => {
			this.cancelTick = undefined
			for (const [userbotId, w] of this.watched) if (!w.out) this.probe(userbotId, w)
			if (this.watched.size > 0) this.schedule()
		})
	}

	private probe(userbotId: number, w: Watched) {
		w.out = true
		let settled = false
		const answered = () => {
			if (settled) return
			settled = true
			w.cancel?.()
			w.cancel = undefined
			w.out = false
		}
		w.cancel = this.clock.after(this.opts.timeoutMs, () => {
			if (settled || this.watched.get(userbotId) !== w) return
			settled = true
			this.watched.delete(userbotId)
			this.onHung(userbotId)
		})
		w.probe().then(answered, answered)
	}
}
