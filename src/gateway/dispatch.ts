import * as v from 'valibot'
import { auditCommand } from '../audit/commands'
import { keyAllowsCommand, keyReachesUserbot } from '../auth/key-scopes'
import { allows } from '../auth/permissions'
import { type CommandContext, CommandError } from '../commands/define'
import { isIntegral, isMissing, toInt, withoutNulls } from '../commands/fields'
import type { RegisteredCommand } from '../commands/registry'
import { checkTdRequest } from '../commands/td-request'
import type { AppContext } from '../context'
import { retryAfterOf } from '../flood/governor'
import { createDeadlineQueue } from '../supervisor/deadlines'
import { RuntimeError, TdError, type TdInvoke, type TdUpdate } from '../telegram/types'
import {
	errorReply,
	FRAME_ERROR_TYPE,
	type FrameRequestId as RequestId,
	requestIdOf,
	successReply,
} from '../wire/envelope'
import { MAX_FRAME_DEPTH, MAX_IN_FLIGHT, MAX_IN_FLIGHT_CHARS } from '../wire/limits'
import { wordError } from './errors'
import { parseFrame } from './frame-json'
import { guessCheck } from './guesses'
import { type Connection, Running } from './running'
import { resolveUploadedFile } from './uploads'

export { MAX_FRAME_DEPTH, MAX_IN_FLIGHT, MAX_IN_FLIGHT_CHARS } from '../wire/limits'

import { GatewayErrors as E } from '../wire/errors'

export type { Connection } from './running'

const READY = 'authorizationStateReady'

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

/**
 * valibot's fallback wording, for a schema that names no message of its own: ours, never valibot's
 * (`Invalid type: Expected string but received 5` would repeat what was sent). Only a field name the
 * schema itself declares is named.
 */
const FIELD_NAME = /^[a-z_][a-z0-9_]{0,63}$/
/** Marks an issue valibot would have worded; the path is only known once the parse is over. */
const UNWORDED = '\u0000unworded'
function wireMessage(issue: v.BaseIssue<unknown>): string {
	if (issue.message !== UNWORDED) return issue.message
	const key = issue.path?.[0]?.key
	return typeof key === 'string' && FIELD_NAME.test(key) ? `${key} is invalid` : 'a field is invalid'
}

/** A frame that passed the envelope checks. */
interface Job {
	entry: RegisteredCommand
	frame: Record<string, unknown>
	userbotId: number
	requestId: RequestId | undefined
}

/**
 * A frame the connection itself answers (`authenticate`, `subscribe`), before any command lookup:
 * its reply, and optionally what to do right after the reply is queued (a subscription's replay).
 */
export type ConnectionAction = (
	conn: Connection,
	frame: Record<string, unknown>,
	requestId: RequestId | undefined,
) => Promise<string | { reply: string; after(): void }>

export interface DispatcherOptions {
	/** Frames the gateway answers for the connection, by action name. */
	connectionActions?: ReadonlyMap<string, ConnectionAction>
}

/**
 * Turns one text frame into exactly one reply. The checks run in the order of the contract's frame
 * table: envelope, registry, userbot_id, company scope, the command's input, authorization; then the
 * command runs under a deadline. Every outcome, success or failure, leaves through its `Running` once.
 */
export function createDispatcher(
	ctx: AppContext,
	registry: ReadonlyMap<string, RegisteredCommand>,
	opts: DispatcherOptions = {},
) {
	const { config, log } = ctx
	const timeoutMs = config.commandTimeoutMs
	const connectionActions = opts.connectionActions ?? new Map<string, ConnectionAction>()
	// Every command gets the same allowance, so deadlines fall in arrival order: one queue, one timer.
	const deadlines = createDeadlineQueue()
	const guesses = guessCheck(ctx)
	// The kinds commands wait for (send_message's wait_sent) are forwarded whatever UPDATE_KINDS says.
	const awaited = [...new Set([...registry.values()].flatMap((e) => e.command.updates ?? []))]
	if (awaited.length > 0) ctx.updates.want(registry, awaited)

	function describe(err: unknown, action: string, userbotId: number): { error: string; result?: unknown } {
		const error = wordError(err)
		if (err instanceof TdError && err.code === 406) {
			log.warn('hidden TDLib error', { action, userbotId, tdCode: err.code, tdMessage: err.message })
		} else if (error === E.INTERNAL) {
			log.error('command failed', { action, userbotId, error: err instanceof Error ? err : String(err) })
		}
		if (err instanceof CommandError) return { error, result: err.result }
		// A flood wait (the governor's refusal or TDLib's own 429): when to try again, in seconds.
		const retryAfter = err instanceof TdError && err.code === 429 ? retryAfterOf(err.message) : undefined
		return retryAfter === undefined ? { error } : { error, result: { retry_after: retryAfter } }
	}

	async function execute(conn: Connection, job: Job, received: number, chars: number): Promise<void> {
		const { entry, frame, userbotId, requestId } = job
		const { command } = entry
		const action = command.name
		// The deadline runs from the frame's arrival: a slow userbot lookup counts against it too.
		const running = new Running(received + timeoutMs, action, userbotId, requestId, conn, deadlines, chars)
		deadlines.add(running)

		// The socket may have outlived its credential (logout, revocation, expiry) since its upgrade.
		let admitted: boolean
		try {
			const check = conn.admit()
			admitted = check === true || check === false ? check : await check
		} catch (err) {
			log.error('credential check failed', { error: err instanceof Error ? err : String(err) })
			return running.fail(E.INTERNAL)
		}
		// Refused: the socket is closing for it, and its running commands (this one too) were answered.
		if (!admitted) return running.drop()

		let record: Awaited<ReturnType<AppContext['userbots']['lookup']>>
		try {
			record = await ctx.userbots.lookup(userbotId)
		} catch (err) {
			log.error('userbot lookup failed', { userbotId, error: err instanceof Error ? err : String(err) })
			return running.fail(E.INTERNAL)
		}
		if (!record || record.companyId !== conn.principal.companyId) return running.fail(E.USERBOT_NOT_FOUND)
		// An API key reaches its userbots only (others are not found, as another company's) and its commands.
		const key = conn.principal.key
		if (key && !keyReachesUserbot(key, userbotId)) return running.fail(E.USERBOT_NOT_FOUND)
		if (key && !keyAllowsCommand(key, entry.groupId, action)) return running.fail(E.PERMISSION_DENIED)
		// Asked for: the reply goes to the company's webhooks too, as a `command.result` event.
		if (frame.webhook === true)
			running.onReply = (reply) =>
				ctx.updates.emit(userbotId, 'command.result', { chat_update: JSON.parse(reply) })
		// The principal as admit just found it: a grant made or revoked a moment ago counts.
		if (command.permission && !allows(conn.principal, command.permission)) {
			return running.fail(E.PERMISSION_DENIED)
		}

		const parsed = v.safeParse(command.input, withoutNulls(frame), { message: UNWORDED })
		if (!parsed.success) return running.fail(wireMessage(parsed.issues[0]))

		const runtime = ctx.runtime
		if (command.requiresAuthorization !== false) {
			const state = runtime?.authorizationState(userbotId)
			// No running client (no backend, or still being restored at start) says nothing about its
			// log-in: the client is unavailable, not unauthorized.
			if (state === undefined) return running.fail(E.RUNTIME_UNAVAILABLE)
			if (state !== READY) return running.fail(E.USERBOT_NOT_AUTHORIZED)
		}
		if (command.checksSecret) {
			const refused = await guesses.take(userbotId)
			if (refused) return running.fail(refused.error, refused.result)
		}

		const invoke: TdInvoke = (request) => {
			if (!runtime) return Promise.reject(new RuntimeError('unavailable', 'no Telegram runtime'))
			// A command sends only what it declares (the catalog and the conformance report stay true), and
			// only what TDLib's schema allows: the check a shard makes again (src/commands/td-request.ts).
			try {
				checkTdRequest(request, {
					userbotId,
					methods: command.methods,
					dataDir: config.dataDir,
					emulator: config.telegram.backend === 'emulator',
				})
			} catch (err) {
				log.error('command sent a TDLib request it may not send', {
					action,
					method: request._,
					error: String(err),
				})
				return Promise.reject(err)
			}
			const timeoutMs = Math.max(1, Math.ceil(running.at - performance.now()))
			// `timeoutMs` ends the request at the command's deadline. A signal goes along only when `run`
			// made one: an abort listener per request cost ~7% of the gateway's CPU under load, and a
			// request of a closed socket is then merely answered into the void (or times out).
			return runtime.invoke(userbotId, request, { signal: running.signalIfMade, timeoutMs, label: action })
		}
		const listening: Array<() => void> = []
		const kinds: readonly string[] = command.updates ?? []
		const commandCtx: CommandContext = {
			userbotId,
			principal: conn.principal,
			invoke,
			get signal() {
				return running.signal
			},
			uploadedFilePath: (ref) => resolveUploadedFile(config.dataDir, userbotId, ref),
			onUpdate(fn) {
				const stop = ctx.updates.observe((event) => {
					if (event.live && event.userbotId === userbotId && kinds.includes(event.kind))
						fn(event.data as TdUpdate)
				})
				listening.push(stop)
				return stop
			},
		}
		try {
			const result = await command.run(parsed.output, commandCtx)
			// The secret was right: the try no longer counts (given back before the answer, in order).
			if (command.checksSecret) await guesses.giveBack(userbotId)
			if (command.audit) await auditCommand(ctx, conn, userbotId, command, parsed.output)
			running.finish(successReply(userbotId, action, result, requestId))
		} catch (err) {
			if (running.done) return
			const { error, result } = describe(err, action, userbotId)
			running.fail(error, result)
		} finally {
			for (const stop of listening) stop()
		}
	}

	/** The envelope checks of the frame table: an error reply, a connection frame, or a command to run. */
	function envelope(
		text: string,
	): string | Job | { action: ConnectionAction; frame: Record<string, unknown>; requestId?: RequestId } {
		let frame: unknown
		try {
			frame = parseFrame(text)
		} catch {
			return errorReply(null, FRAME_ERROR_TYPE, E.INVALID_JSON, undefined)
		}
		if (typeof frame !== 'object' || frame === null || Array.isArray(frame)) {
			return errorReply(null, FRAME_ERROR_TYPE, E.NOT_AN_OBJECT, undefined)
		}
		const fields = frame as Record<string, unknown>
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

	const actionOf = (frame: Record<string, unknown>) => String(frame.action)

	/** Handles one text frame. Never throws; never sends more than one reply. */
	function handle(conn: Connection, text: string): void {
		// Stopping: nothing new runs; the coming close answers it (and tells the client it never ran).
		if (conn.leaving) return
		const received = performance.now()
		const checked = envelope(text)
		if (typeof checked === 'string') {
			conn.send(checked)
			return
		}
		const action = 'entry' in checked ? checked.entry.command.name : actionOf(checked.frame)
		const userbotId = 'entry' in checked ? checked.userbotId : (toInt(checked.frame.userbot_id) ?? null)
		if (conn.refusing !== null) {
			conn.send(errorReply(userbotId, `${action}_error`, conn.refusing, checked.requestId))
			return
		}
		if (conn.runningCount >= MAX_IN_FLIGHT || conn.runningChars + text.length > MAX_IN_FLIGHT_CHARS) {
			conn.send(errorReply(userbotId, `${action}_error`, E.TOO_MANY_IN_FLIGHT, checked.requestId))
			return
		}
		if (!('entry' in checked)) {
			const running = new Running(
				received + timeoutMs,
				action,
				userbotId,
				checked.requestId,
				conn,
				deadlines,
				text.length,
			)
			deadlines.add(running)
			checked.action(conn, checked.frame, checked.requestId).then(
				(outcome) => {
					if (typeof outcome === 'string') return running.finish(outcome)
					if (running.done) return
					running.finish(outcome.reply)
					outcome.after()
				},
				(err) => {
					log.error('connection frame failed', { action, error: err instanceof Error ? err : String(err) })
					running.fail(E.INTERNAL)
				},
			)
			return
		}
		execute(conn, checked, received, text.length).catch((err) => {
			// execute answers every outcome itself; reaching here is a bug in the gateway.
			log.error('gateway dispatch failed', { error: err instanceof Error ? err : String(err) })
		})
	}

	return { handle }
}
