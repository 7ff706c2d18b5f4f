import type { Logger } from '../../common/util/logger'
import type { LeaseView } from './lease-view'
import type { LeaseHolder } from './leases'
import { within } from './resilient'

/** How long one step of a check may take before the check goes on without it (it is logged). */
const STEP_MS = 15_000

/** What the periodic check needs of a shard. */
export interface ReconcilableShard {
	shardId: string
	incarnation(): string
	/** Userbots it runs, being started or being handed over: not to be touched by the check. */
	busy(userbotId: number): boolean
	running(): Iterable<number>
	isOwner(userbotId: number): boolean
	/** Whether the members say this holder is up (its shard live under that incarnation). */
	alive(holder: LeaseHolder): boolean
	viewFresh(): boolean
	leaseView: LeaseView
	/** Makes again the watchers that are down or stuck. */
	recheck(): Promise<void>
	/** Hands over what it runs but no longer owns (as on a change of members). */
	handOver(): void
	/** Takes the lease of a userbot it runs again (it vanished from the bucket); false when it cannot. */
	reacquire(userbotId: number): Promise<boolean>
	/** Stops a userbot here without touching its lease (another shard holds it now). */
	stopHere(userbotId: number): Promise<void>
	/** Deletes a lease at the revision seen; the userbot's next start here skips an update number. */
	clearLease(userbotId: number, revision: number): Promise<void>
}

/**
 * A shard's periodic reconciliation of its leases with the ownership, so that they match again
 * after anything: a bus outage (every shard fenced itself and came back as a new incarnation,
 * leaving leases behind), a missed change of members, a lease that vanished. What it finds is acted
 * on when seen at two checks in a row, the same (a start or a hand-over in progress is not):
 * - a userbot it runs whose lease another live shard holds: stopped here (that shard runs it);
 * - a userbot it runs whose lease is gone, or held by a holder that is gone (its own past
 *   incarnation: a start that outlived a fence): the lease taken again, or the userbot stopped;
 * - a lease of this incarnation for a userbot it does not run: let go;
 * - a lease of a holder that is gone (or does not open), for a userbot it owns and does not run:
 *   cleared, so that the userbot starts without waiting, with a number skipped (`resync`).
 */
export class ShardReconcile {
	private previous = new Set<string>()
	private running = false

	constructor(
		private readonly shard: ReconcilableShard,
		private readonly log: Logger,
		private readonly stepMs = STEP_MS,
	) {}

	async tick(): Promise<void> {
		if (this.running) return
		this.running = true
		try {
			await this.run()
		} finally {
			this.running = false
		}
	}

	private async run() {
		const s = this.shard
		await within(s.recheck(), this.stepMs, 'the watches check').catch((err: unknown) =>
			this.log.warn('could not check the bus watches', { error: String(err) }),
		)
		s.handOver()
		if (!s.viewFresh() || !s.leaseView.up) return
		const found = new Map<string, () => Promise<unknown>>()
		const self = `${s.shardId}=${s.incarnation()}`
		const holderKey = (h?: LeaseHolder) => (h ? `${h.shard}=${h.incarnation}` : 'unreadable')
		for (const userbotId of s.running()) {
			if (s.busy(userbotId)) continue
			const lease = s.leaseView.get(userbotId)
			if (!lease) found.set(`${userbotId}:missing`, () => s.reacquire(userbotId))
			else if (holderKey(lease.holder) === self) continue
			else if (lease.holder && s.alive(lease.holder))
				found.set(`${userbotId}:other:${lease.revision}`, () => s.stopHere(userbotId))
			// Held by a past incarnation (a start that outlived a fence) or a holder that is gone: ours again.
			else found.set(`${userbotId}:past:${lease.revision}`, () => s.reacquire(userbotId))
		}
		const runs = new Set(s.running())
		for (const [userbotId, lease] of s.leaseView.entries()) {
			if (runs.has(userbotId) || s.busy(userbotId)) continue
			const key = holderKey(lease.holder)
			const gone = !lease.holder || !s.alive(lease.holder)
			if (key === self || (gone && s.isOwner(userbotId)))
				found.set(`${userbotId}:stale:${lease.revision}`, () => s.clearLease(userbotId, lease.revision))
		}
		for (const [key, act] of found) {
			if (!this.previous.has(key)) continue
			const [userbotId, what] = key.split(':')
			// One step that never ends (a userbot's queue stuck behind a start) must not end the checks.
			const done = await within(act(), this.stepMs, 'a lease reconciliation step').then(
				() => true,
				(err: unknown) => {
					this.log.warn('could not reconcile a lease', {
						userbotId: Number(userbotId),
						what,
						error: String(err),
					})
					return false
				},
			)
			if (done) this.log.info('lease reconciled', { userbotId: Number(userbotId), what })
		}
		this.previous = new Set(found.keys())
	}
}
