import type { Msg } from '@nats-io/transport-node'
import {
	type InvokeMessage,
	MOVED,
	parseParentMessage,
	type ResultMessage,
	type StartMessage,
	type StopMessage,
	toWireError,
	type WireError,
} from '../supervisor/protocol'
import { RuntimeError } from '../telegram/types'
import { LeaseTimeoutError } from './leases'
import type { BusSealing } from './types'

/** The userbot is another shard's (or this shard's view is stale): the gateway asks again. */
export class MovedError extends Error {
	override name = 'MovedError'
}

export interface ShardHandlers {
	invoke(m: InvokeMessage): Promise<unknown>
	start(m: StartMessage): Promise<unknown>
	stop(m: StopMessage): Promise<unknown>
}

/**
 * One gateway request on the shard's subject: only one sealed with the deployment's key, never seen
 * before, and answerable is taken; it gets one reply, sealed for its reply subject.
 */
export function serveShardMessage(codec: BusSealing, msg: Msg, handlers: ShardHandlers): void {
	if (!msg.reply) return
	const raw = codec.open(msg.subject, msg.data)
	if (raw === undefined) return
	const parsed = parseParentMessage(raw)
	if (!parsed.ok) {
		if (parsed.id !== undefined)
			respond(codec, msg, parsed.id, { code: 'bad_request', message: parsed.error })
		return
	}
	const m = parsed.message
	const id = 'id' in m ? (m.id ?? 0) : 0
	const answer = (p: Promise<unknown>) =>
		p.then(
			(value) => respond(codec, msg, id, undefined, value),
			(err: unknown) => respond(codec, msg, id, wire(err)),
		)
	switch (m.type) {
		case 'invoke':
			return void answer(handlers.invoke(m))
		case 'start':
			return void answer(handlers.start(m))
		case 'stop':
			return void answer(handlers.stop(m))
		default:
			if ('id' in m && m.id !== undefined)
				respond(codec, msg, m.id, { code: 'bad_request', message: `${m.type} is not taken over the bus` })
	}
}

function respond(codec: BusSealing, msg: Msg, id: number, error?: WireError, value?: unknown) {
	const result: ResultMessage = error
		? { type: 'result', id, ok: false, error }
		: { type: 'result', id, ok: true, value: value ?? null }
	if (msg.reply) msg.respond(codec.seal(msg.reply, result))
}

function wire(err: unknown): WireError {
	if (err instanceof MovedError) return { code: MOVED, message: 'the userbot belongs to another shard' }
	if (err instanceof LeaseTimeoutError) return { code: 'unavailable', message: err.message }
	if (err instanceof RuntimeError) return { code: err.code, message: err.message }
	return toWireError(err)
}
