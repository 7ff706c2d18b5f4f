import { type Consumer, DeliverPolicy, type JsMsg } from '@nats-io/jetstream'
import type { Logger } from '../../common/util/logger'
import { isUserbotStatus, type UserbotStatus } from '../flood/health'
import type { Bus } from './connection'
import { type Follower, Resilient } from './resilient'
import { AUTH_STATES, EVENTS_STREAM, eventSubjectParts, UPDATES } from './subjects'

/** An authorization state as a shard publishes it, with the shard incarnation that runs the userbot. */
export interface AuthStateEvent {
	userbotId: number
	state: string
	detail?: Record<string, unknown>
	/** `shard=incarnation`, when the shard said so. */
	owner?: string
}

/** An account status change as a shard publishes it (on the authorization states' subject). */
export interface StatusEvent {
	userbotId: number
	status: UserbotStatus
	until?: number
	initial?: boolean
}

export interface UpdateEvent {
	userbotId: number
	seq: number
	update: { _: string }
}

interface FollowState {
	/** The stream sequence of the last message handled: a consumer made again goes on after it. */
	last: number
	delivered: number
	deliveredAtCheck: number
	/** Messages the server still had for it, as of the last one received. */
	pending: number
	consumer?: Consumer
}

/**
 * A gateway's reading of the event stream: authorization states from now on, and every update the
 * stream keeps (so the hub holds what a resuming client may ask for), each opened with the bus key
 * and checked before use. Each consumer is made again after a reconnect, when it ends, and when it
 * is stuck, from the message after the last one handled (`Resilient`): nothing the stream kept is
 * skipped. What the stream never got (a shard cut off while publishing) shows as a hole in a
 * userbot's numbers, which the hub answers with `resync`.
 */
export class EventFeed {
	private readonly followers: Resilient[] = []
	private readonly states: FollowState[] = []
	private caughtUpAt = performance.now()

	constructor(
		private readonly bus: Pick<Bus, 'js' | 'jsm' | 'codec' | 'onReconnect'>,
		private readonly handlers: {
			onAuthState(e: AuthStateEvent): void
			onStatus(e: StatusEvent): void
			onUpdate(e: UpdateEvent): void
		},
		private readonly log: Logger,
	) {}

	async start(): Promise<void> {
		// States from now on: the stream's last message is where the auth consumer starts.
		const info = await this.bus.jsm.streams.info(EVENTS_STREAM)
		const auth: FollowState = { last: info.state.last_seq, delivered: 0, deliveredAtCheck: 0, pending: 0 }
		const updates: FollowState = { last: 0, delivered: 0, deliveredAtCheck: 0, pending: 0 }
		this.add('authorization states', `${AUTH_STATES}.*.*`, auth, (m) => this.authState(m))
		this.add('updates', `${UPDATES}.*.*`, updates, (m) => this.update(m))
		try {
			for (const f of this.followers) await f.open()
		} catch (err) {
			this.close()
			throw err
		}
	}

	private add(name: string, filter: string, state: FollowState, handle: (m: JsMsg) => void) {
		const follower: Follower = {
			start: async (ended) => {
				const consumer = await this.bus.js.consumers.get(EVENTS_STREAM, {
					filter_subjects: filter,
					...(state.last > 0
						? { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: state.last + 1 }
						: { deliver_policy: DeliverPolicy.All }),
				})
				state.consumer = consumer
				const messages = await consumer.consume({
					callback: (m) => {
						state.last = m.seq
						state.delivered++
						state.pending = m.info.pending
						if (this.pending() === 0) this.caughtUpAt = performance.now()
						try {
							handle(m)
						} catch (err) {
							this.log.warn('event from the bus dropped', { subject: m.subject, error: String(err) })
						}
					},
				})
				let stopped = false
				void messages.closed().then(() => {
					if (!stopped) ended()
				})
				return () => {
					stopped = true
					void messages.close().catch(() => undefined)
				}
			},
			stalled: async () => {
				const delivered = state.delivered
				const stuck = state.delivered === state.deliveredAtCheck
				state.deliveredAtCheck = delivered
				// Gone from the server (it restarted), or messages wait there and none came since the last check.
				const info = await state.consumer?.info(false).catch(() => undefined)
				if (!info) return true
				state.pending = info.num_pending
				if (info.num_pending === 0 && this.pending() === 0) this.caughtUpAt = performance.now()
				return stuck && info.num_pending > 0
			},
		}
		this.states.push(state)
		this.followers.push(new Resilient(name, follower, this.bus, this.log))
	}

	private pending(): number {
		return this.states.reduce((n, s) => n + s.pending, 0)
	}

	private stored(m: JsMsg) {
		return m.time.getTime()
	}

	private authState(m: JsMsg) {
		const where = eventSubjectParts(m.subject)
		if (!where) return
		const body = this.bus.codec.open<{
			state?: unknown
			detail?: unknown
			incarnation?: unknown
			status?: unknown
			until?: unknown
			initial?: unknown
		}>(m.subject, m.data, this.stored(m))
		if (body && body.state === undefined) return this.status(where.userbotId, body)
		if (!body || typeof body.state !== 'string') return
		const event: AuthStateEvent = { userbotId: where.userbotId, state: body.state }
		if (typeof body.detail === 'object' && body.detail !== null && !Array.isArray(body.detail))
			event.detail = body.detail as Record<string, unknown>
		if (typeof body.incarnation === 'string') event.owner = `${where.shardId}=${body.incarnation}`
		this.handlers.onAuthState(event)
	}

	/** Only a known status, and an `until` that is a time in seconds, are taken. */
	private status(userbotId: number, body: { status?: unknown; until?: unknown; initial?: unknown }) {
		if (!isUserbotStatus(body.status)) return
		const event: StatusEvent = { userbotId, status: body.status }
		if (body.until !== undefined) {
			if (typeof body.until !== 'number' || !Number.isSafeInteger(body.until) || body.until < 0) return
			event.until = body.until
		}
		if (body.initial === true) event.initial = true
		this.handlers.onStatus(event)
	}

	private update(m: JsMsg) {
		const where = eventSubjectParts(m.subject)
		if (!where) return
		const body = this.bus.codec.open<{ seq?: unknown; update?: { _?: unknown } }>(
			m.subject,
			m.data,
			this.stored(m),
		)
		const update = body?.update
		if (!body || typeof body.seq !== 'number' || !Number.isSafeInteger(body.seq) || body.seq < 1) return
		if (!update || typeof update !== 'object' || typeof update._ !== 'string') return
		this.handlers.onUpdate({ userbotId: where.userbotId, seq: body.seq, update: update as { _: string } })
	}

	/** Makes again what is stuck (called periodically). */
	async check(): Promise<void> {
		await Promise.all(this.followers.map((f) => f.check()))
	}

	/**
	 * How the feed is: down (a consumer is being made again), or how many messages wait on the
	 * server and for how long it has not been caught up.
	 */
	health(): { up: boolean; pending: number; behindMs: number } {
		const up = this.followers.every((f) => f.up)
		const pending = this.pending()
		return { up, pending, behindMs: pending > 0 || !up ? Math.round(performance.now() - this.caughtUpAt) : 0 }
	}

	close(): void {
		for (const f of this.followers) f.close()
	}
}
