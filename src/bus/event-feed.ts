import { DeliverPolicy } from '@nats-io/jetstream'
import type { Logger } from '../logger'
import type { Bus } from './connection'
import { AUTH_STATES, EVENTS_STREAM, UPDATES, userbotOfSubject } from './subjects'

/** An authorization state as a shard publishes it, with the shard incarnation that runs the userbot. */
export interface AuthStateEvent {
	userbotId: number
	state: string
	detail?: Record<string, unknown>
	/** `shard=incarnation`, when the shard said so. */
	owner?: string
}

export interface UpdateEvent {
	userbotId: number
	seq: number
	update: { _: string }
}

/**
 * A gateway's reading of the event stream: authorization states from now on, and every update the
 * stream keeps (so the hub holds what a resuming client may ask for), each checked before use.
 * Ordered consumers: they resume by themselves after a reconnect. Resolves with the stop.
 */
export async function followEvents(
	bus: Pick<Bus, 'js'>,
	handlers: { onAuthState(e: AuthStateEvent): void; onUpdate(e: UpdateEvent): void },
	log: Logger,
	isClosing: () => boolean,
): Promise<() => void> {
	const stops: Array<() => void> = []
	const follow = async (
		filter: string,
		policy: DeliverPolicy,
		handle: (m: { subject: string; json<T>(): T }) => void,
	) => {
		const consumer = await bus.js.consumers.get(EVENTS_STREAM, {
			filter_subjects: filter,
			deliver_policy: policy,
		})
		const messages = await consumer.consume()
		stops.push(() => void messages.close())
		void (async () => {
			for await (const m of messages) {
				try {
					handle(m)
				} catch (err) {
					log.warn('event from the bus dropped', { subject: m.subject, error: String(err) })
				}
			}
		})().catch((err: unknown) => {
			if (!isClosing()) log.error('reading events from the bus stopped', { error: String(err) })
		})
	}
	const stopAll = () => {
		for (const stop of stops.splice(0)) stop()
	}
	try {
		await follow(`${AUTH_STATES}.>`, DeliverPolicy.New, (m) => {
			const e = authStateOf(m)
			if (e) handlers.onAuthState(e)
		})
		await follow(`${UPDATES}.>`, DeliverPolicy.All, (m) => {
			const e = updateOf(m)
			if (e) handlers.onUpdate(e)
		})
	} catch (err) {
		stopAll()
		throw err
	}
	return stopAll
}

function authStateOf(m: { subject: string; json<T>(): T }): AuthStateEvent | undefined {
	const userbotId = userbotOfSubject(m.subject)
	if (userbotId === undefined) return undefined
	const body = m.json<{ state?: unknown; detail?: unknown; shard?: unknown; incarnation?: unknown }>()
	if (typeof body.state !== 'string') return undefined
	const event: AuthStateEvent = { userbotId, state: body.state }
	if (typeof body.detail === 'object' && body.detail !== null)
		event.detail = body.detail as Record<string, unknown>
	if (typeof body.shard === 'string' && typeof body.incarnation === 'string')
		event.owner = `${body.shard}=${body.incarnation}`
	return event
}

function updateOf(m: { subject: string; json<T>(): T }): UpdateEvent | undefined {
	const userbotId = userbotOfSubject(m.subject)
	if (userbotId === undefined) return undefined
	const body = m.json<{ seq?: unknown; update?: { _?: unknown } }>()
	const update = body.update
	if (typeof body.seq !== 'number' || !update || typeof update._ !== 'string') return undefined
	return { userbotId, seq: body.seq, update: update as { _: string } }
}
