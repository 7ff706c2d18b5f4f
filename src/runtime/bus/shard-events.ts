import type { Logger } from '../../common/util/logger'
import type { RuntimeEvent } from '../supervisor/types'
import type { Bus } from './connection'
import { authSubject, updateSubject } from './subjects'

/**
 * What a shard publishes of the userbots it runs: each update numbered (going on from the number
 * set at its start) on `ubg.upd.<shard>.<userbot>`, each authorization state with the incarnation
 * that runs it, and each account status change (`{status, until?, initial?}`, never numbered: it is
 * no TDLib update), on `ubg.auth.<shard>.<userbot>`, sealed. A number whose update does not reach the
 * stream stays used: the gateways see the hole and their subscribers get `resync`.
 */
export class ShardEvents {
	/** The last update number given out per userbot. */
	private readonly seqs = new Map<number, number>()

	constructor(
		private readonly bus: Pick<Bus, 'js' | 'codec'>,
		private readonly shardId: string,
		private readonly log: Logger,
	) {}

	/** Numbers the userbot's next update `seq + 1`. */
	startAt(userbotId: number, seq: number): void {
		this.seqs.set(userbotId, seq)
	}

	forget(userbotId: number): void {
		this.seqs.delete(userbotId)
	}

	clear(): void {
		this.seqs.clear()
	}

	update(e: Extract<RuntimeEvent, { type: 'update' }>): void {
		const userbotId = e.userbotId
		const seq = (this.seqs.get(userbotId) ?? 0) + 1
		this.seqs.set(userbotId, seq)
		const subject = updateSubject(this.shardId, userbotId)
		// The message id makes the stream keep one update per number, whoever publishes it.
		void this.bus.js
			.publish(subject, this.bus.codec.seal(subject, { seq, update: e.update }), {
				msgID: `${userbotId}:${seq}`,
			})
			.catch((err: unknown) => this.log.warn('update not published', { userbotId, seq, error: String(err) }))
	}

	state(
		e: Extract<RuntimeEvent, { type: 'authorization_state' | 'userbot_status' }>,
		incarnation: string,
	): void {
		const subject = authSubject(this.shardId, e.userbotId)
		const body =
			e.type === 'authorization_state'
				? { state: e.state, detail: e.detail, incarnation }
				: { status: e.status, until: e.until, initial: e.initial, incarnation }
		void this.bus.js
			.publish(subject, this.bus.codec.seal(subject, body))
			.catch((err: unknown) =>
				this.log.warn('state not published', { userbotId: e.userbotId, error: String(err) }),
			)
	}
}
