import {
	errorReply,
	type FrameRequestId as RequestId,
	SUBSCRIBE,
	successReply,
	UNSUBSCRIBE,
} from '../../common/wire/envelope'
import { GatewayErrors as E } from '../../common/wire/errors'
import { MAX_UPDATE_KINDS } from '../../common/wire/limits'
import { isTdUpdate } from '../../runtime/telegram/schema'
import type { AppContext } from '../context'
import { SUBSCRIBE_POLICY } from '../policy/entry'
import { parseFilter } from '../updates/filter'
import type { UpdateSink } from '../updates/hub'
import { type ConnectionAction, userbotIdOf } from './frame-checks'
import { userbotFound, wireRefusal } from './reach'
import type { Connection } from './running'

/**
 * `subscribe` and `unsubscribe`: the connection's own frames for live updates (src/server/updates/hub.ts).
 *
 * `{"action": "subscribe", "userbot_id": N, "updates": [...kinds], "after": S, "filter": {...}}` (all
 * three optional; the filter is src/server/updates/filter.ts, docs/live-updates.md#filters) is answered like a command, `subscribe` with `{last_seq}` or `subscribe_error`; right after the reply
 * come the updates after S (if `after` was given), then live ones, each
 * `{"type": "update", "userbot_id", "seq", "update": {...}}`. Another company's userbot, one out of
 * an API key's reach, or one that does not exist, is `userbot not found` (the policy's, docs/policy.md).
 */
export function subscriptionActions(
	ctx: AppContext,
	sinkOf: (conn: Connection) => UpdateSink | undefined,
): Map<string, ConnectionAction> {
	/** The userbot of the frame, if the caller may see it; else the error reply. */
	const scoped = async (
		conn: Connection,
		frame: Record<string, unknown>,
		type: string,
		requestId: RequestId | undefined,
	): Promise<{ id: number } | { error: string }> => {
		const id = userbotIdOf(frame)
		if (typeof id !== 'number') return { error: errorReply(null, `${type}_error`, id.error, requestId) }
		const refused = wireRefusal(conn.principal, SUBSCRIBE_POLICY, await userbotFound(ctx, id))
		return refused ? { error: errorReply(id, `${type}_error`, refused, requestId) } : { id }
	}

	const subscribe: ConnectionAction = async (conn, frame, requestId) => {
		const fail = (userbotId: number | null, error: string) =>
			errorReply(userbotId, `${SUBSCRIBE}_error`, error, requestId)
		const target = await scoped(conn, frame, SUBSCRIBE, requestId)
		if ('error' in target) return target.error
		const { updates, after, filter } = frame
		if (
			updates !== undefined &&
			(!Array.isArray(updates) ||
				updates.length === 0 ||
				updates.length > MAX_UPDATE_KINDS ||
				!updates.every((k) => typeof k === 'string' && isTdUpdate(k)))
		) {
			return fail(target.id, E.UPDATES_KINDS)
		}
		if (after !== undefined && !(typeof after === 'number' && Number.isSafeInteger(after) && after >= 0)) {
			return fail(target.id, E.AFTER_NOT_SEQ)
		}
		const checked = parseFilter(filter)
		if (!checked.ok) return fail(target.id, checked.error)
		const sink = sinkOf(conn)
		if (!sink) return fail(target.id, E.INTERNAL)
		const kinds = updates as string[] | undefined
		const subscribed = ctx.updates.subscribe(sink, target.id, kinds, after, checked.filter)
		return {
			reply: successReply(target.id, SUBSCRIBE, { last_seq: subscribed.lastSeq }, requestId),
			after: subscribed.start,
		}
	}

	const unsubscribe: ConnectionAction = async (conn, frame, requestId) => {
		const target = await scoped(conn, frame, UNSUBSCRIBE, requestId)
		if ('error' in target) return target.error
		const sink = sinkOf(conn)
		const ended = sink ? ctx.updates.unsubscribe(sink, target.id) : false
		return successReply(target.id, UNSUBSCRIBE, { unsubscribed: ended }, requestId)
	}

	return new Map([
		[SUBSCRIBE, subscribe],
		[UNSUBSCRIBE, unsubscribe],
	])
}
