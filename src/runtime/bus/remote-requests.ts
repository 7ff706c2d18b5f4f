import { createInbox, type Msg, type Subscription } from '@nats-io/transport-node'
import type { RequestChannel } from '../supervisor/channel'
import { fromWireError, MOVED, type ParentMessage, parseChildMessage } from '../supervisor/protocol'
import { RuntimeError } from '../telegram/types'
import type { Bus } from './connection'
import { inboxPrefix, shardSubject } from './subjects'

/** The shard said the userbot is another's (or its view is stale): asked again. */
export class MovedError extends Error {
	override name = 'MovedError'
}

/**
 * A gateway's requests to the shards, over the one pending-request channel of the runtime
 * (`RequestChannel`): each is one NATS message to its shard's subject with a reply subject of its
 * own (`<inbox>.<id>`), so the server lets a shard answer each request once (`allow_responses`),
 * and a shard's "no responders" says which request it was. The requests in flight are counted per
 * shard incarnation (`id=incarnation`): a shard that goes fails its own at once (`failShard`).
 */
export class RemoteRequests {
	private readonly inbox: string
	private sub?: Subscription
	/** Requests in flight per shard incarnation (`id=incarnation`). */
	private readonly inflight = new Map<string, Set<number>>()

	constructor(
		private readonly bus: Bus,
		gatewayId: string,
		private readonly channel: RequestChannel,
	) {
		this.inbox = createInbox(inboxPrefix('gateway', gatewayId.slice(0, 8)))
	}

	/** Takes the replies. */
	listen(): void {
		this.sub = this.bus.nc.subscribe(`${this.inbox}.*`, {
			callback: (err, msg) => {
				if (!err) this.onReply(msg)
			},
		})
	}

	private onReply(msg: Msg) {
		const id = Number(msg.subject.slice(this.inbox.length + 1))
		if (!Number.isSafeInteger(id)) return
		// The server's own word: nobody takes requests on that shard's subject (it just went).
		if (msg.data.length === 0 && msg.headers?.code === 503)
			return this.channel.fail(id, new RuntimeError('runtime_down', 'the shard running the userbot stopped'))
		// Sealed by a shard of this deployment for this very reply subject, or dropped (and logged).
		const raw = this.bus.codec.open(msg.subject, msg.data)
		if (raw === undefined) return
		const parsed = parseChildMessage(raw)
		if (!parsed.ok) {
			this.channel.fail(id, new RuntimeError('unavailable', 'invalid reply'))
			return
		}
		const m = parsed.message
		if (m.type !== 'result' || m.id !== id) return
		this.channel.answer(m, (e) => (e.code === MOVED ? new MovedError(e.message) : fromWireError(e)))
	}

	/** Sends `msg` to `shard` (`id=incarnation`) under a fresh id; resolves with the reply. */
	send(
		shard: string,
		msg: ParentMessage & { id: number },
		opts: { timeoutMs: number; signal?: AbortSignal },
	): Promise<unknown> {
		let sent = false
		const promise = this.channel.request(msg, opts, (m) => {
			sent = true
			const subject = shardSubject(shard.slice(0, shard.indexOf('=')))
			this.bus.nc.publish(subject, this.bus.codec.seal(subject, m), { reply: `${this.inbox}.${m.id}` })
		})
		if (sent) this.track(shard, msg.id, promise)
		return promise
	}

	/** Counts request `id` in flight on `shard` until it is answered (a shard gone fails its own). */
	private track(shard: string, id: number, promise: Promise<unknown>) {
		let ids = this.inflight.get(shard)
		if (!ids) {
			ids = new Set()
			this.inflight.set(shard, ids)
		}
		ids.add(id)
		const untrack = () => {
			const set = this.inflight.get(shard)
			set?.delete(id)
			if (set?.size === 0) this.inflight.delete(shard)
		}
		void promise.then(untrack, untrack)
	}

	/** The shard incarnation went: what it had in flight fails with `runtime_down`. */
	failShard(shard: string): void {
		const ids = this.inflight.get(shard)
		this.inflight.delete(shard)
		const err = new RuntimeError('runtime_down', 'the shard running the userbot stopped')
		for (const id of ids ?? []) this.channel.fail(id, err)
	}

	/** Stops taking replies. */
	async close(): Promise<void> {
		await this.sub?.drain().catch(() => undefined)
	}
}
