import { errorReply, FRAME_ERROR_TYPE, type FrameRequestId, requestIdOf } from '../../common/wire/envelope'
import { GatewayErrors as E } from '../../common/wire/errors'
import { MAX_FRAME_DEPTH } from '../../common/wire/limits'
import { isIntegral, isMissing, toInt, withoutNulls } from '../commands/frame-values'
import type { RegisteredCommand } from '../commands/registry'
import { parseFrame } from './frame-json'
import type { Connection } from './running'

/**
 * The envelope checks of the frame table (docs/protocol.md#frames-that-are-no-command): what every
 * frame is checked for before a command or a connection's own frame is looked at.
 */

/**
 * A frame the connection itself answers (`authenticate`, `subscribe`), before any command lookup:
 * its reply, and optionally what to do right after the reply is queued (a subscription's replay).
 */
export type ConnectionAction = (
	conn: Connection,
	frame: Record<string, unknown>,
	requestId: FrameRequestId | undefined,
) => Promise<string | { reply: string; after(): void }>

/** A command frame that passed the envelope checks. */
export interface Job {
	entry: RegisteredCommand
	frame: Record<string, unknown>
	userbotId: number
	requestId: FrameRequestId | undefined
}

/** A connection's own frame that passed the envelope checks. */
export interface OwnFrame {
	action: ConnectionAction
	frame: Record<string, unknown>
	requestId?: FrameRequestId
}

/**
 * The frame table's checks of `userbot_id` (docs/protocol.md#frames-that-are-no-command), for the
 * connection's own frames that name a userbot (`subscribe`): the id, or the wire string saying what is wrong
 * with it.
 */
export function userbotIdOf(frame: Record<string, unknown>): number | { error: string } {
	const raw = frame.userbot_id
	if (isMissing(raw)) return { error: E.USERBOT_ID_REQUIRED }
	const id = toInt(raw)
	if (id !== undefined) return id
	return { error: isIntegral(raw) ? E.USERBOT_NOT_FOUND : E.USERBOT_ID_NOT_INTEGER }
}

/** Whether `value` nests objects and lists deeper than `max` (walked without recursion). */
export function nestedDeeperThan(value: unknown, max: number): boolean {
	const stack: Array<[unknown, number]> = [[value, 0]]
	while (stack.length > 0) {
		const [node, depth] = stack.pop()!
		if (typeof node !== 'object' || node === null) continue
		if (depth >= max) return true
		for (const child of Array.isArray(node) ? node : Object.values(node)) {
			if (typeof child === 'object' && child !== null) stack.push([child, depth + 1])
		}
	}
	return false
}

/** The frame as an object, or the reply to a frame that is none (it names no command: no request id). */
function objectOf(text: string): Record<string, unknown> | string {
	let frame: unknown
	try {
		frame = parseFrame(text)
	} catch {
		return errorReply(null, FRAME_ERROR_TYPE, E.INVALID_JSON, undefined)
	}
	if (typeof frame !== 'object' || frame === null || Array.isArray(frame)) {
		return errorReply(null, FRAME_ERROR_TYPE, E.NOT_AN_OBJECT, undefined)
	}
	return frame as Record<string, unknown>
}

/**
 * The envelope checks of the frame table, in its order: an error reply, a connection's own frame, or
 * a command to run.
 */
export function checkEnvelope(
	text: string,
	registry: ReadonlyMap<string, RegisteredCommand>,
	connectionActions: ReadonlyMap<string, ConnectionAction>,
): string | Job | OwnFrame {
	const fields = objectOf(text)
	if (typeof fields === 'string') return fields
	const requestId = requestIdOf(fields)
	const action = fields.action
	const rawId = fields.userbot_id
	const userbotId = toInt(rawId) ?? null
	if (typeof action !== 'string' || action === '') {
		return errorReply(userbotId, FRAME_ERROR_TYPE, E.ACTION_REQUIRED, requestId)
	}
	const errorType = `${action}_error`
	const own = connectionActions.get(action)
	const entry = own ? undefined : registry.get(action)
	if (!own && !entry) return errorReply(userbotId, errorType, E.UNKNOWN_ACTION, requestId)
	if (nestedDeeperThan(fields, MAX_FRAME_DEPTH)) {
		return errorReply(userbotId, errorType, E.TOO_DEEP, requestId)
	}
	if (own) return { action: own, frame: withoutNulls(fields), requestId }
	if (isMissing(rawId)) return errorReply(null, errorType, E.USERBOT_ID_REQUIRED, requestId)
	if (userbotId === null) {
		// An integer beyond 2^53 is an integer: no userbot has such an id.
		if (isIntegral(rawId)) return errorReply(null, errorType, E.USERBOT_NOT_FOUND, requestId)
		return errorReply(null, errorType, E.USERBOT_ID_NOT_INTEGER, requestId)
	}
	return { entry: entry!, frame: fields, userbotId, requestId }
}
