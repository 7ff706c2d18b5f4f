import * as v from 'valibot'
import type { Principal } from '../auth/types'
import { type CommandContext, CommandError } from '../commands/define'
import { toInt } from '../commands/fields'
import type { RegisteredCommand } from '../commands/registry'
import type { AppContext } from '../context'
import { createDeadlineQueue, type Deadline } from '../supervisor/deadlines'
import { RuntimeError, TdError, type TdInvoke } from '../telegram/types'
import { GatewayErrors as E, FRAME_ERROR_TYPE, wordError } from './errors'
import { errorReply, type RequestId, requestIdOf, successReply } from './replies'
import { resolveUploadedFile } from './uploads'

/** One open WebSocket, as the dispatcher sees it. */
export interface Connection {
	principal: Principal
	/** Aborted when the socket closes. */
	signal: AbortSignal
	/** Sends one serialized reply; a no-op once the socket is closed. */
	send(reply: string): void
	/**
	 * Whether the credential the socket was opened with still holds: from memory when it can tell,
	 * else a promise. False closes the socket (1008); the command then gets no reply.
	 */
	admit(): boolean | Promise<boolean>
	/** Commands accepted and not yet settled; the dispatcher keeps it. */
	inFlight: number
}

/** Commands one connection may have running at once; one more is refused at once. */
export const MAX_IN_FLIGHT = 256

/** A JSON number that is an integer, however large, or a digit string (ids beyond 2^53 in some clients). */
const isIntegral = (value: unknown) =>
	(typeof value === 'number' && Number.isInteger(value)) ||
	(typeof value === 'string' && /^-?\d+$/.test(value))

const READY = 'authorizationStateReady'

/**
 * A command between validation and reply. Its AbortSignal is made only when `run` asks for it
 * (the messages commands never do): it aborts at the deadline or when the socket closes.
 */
export class Running implements Deadline {
	done = false
	private controller: AbortController | undefined
	constructor(
		readonly at: number,
		private readonly conn: Connection,
		private readonly timeoutReply: () => string,
	) {}

	get signal(): AbortSignal {
		if (!this.controller) {
			const controller = new AbortController()
			this.controller = controller
			const closed = this.conn.signal
			if (closed.aborted) controller.abort(closed.reason)
			else closed.addEventListener('abort', () => controller.abort(closed.reason), { once: true })
		}
		return this.controller.signal
	}

	/** The signal if `run` asked for one, for the runtime to drop the request early. */
	get signalIfMade(): AbortSignal | undefined {
		return this.controller?.signal
	}

	expire() {
		if (this.done) return
		this.done = true
		this.conn.send(this.timeoutReply())
		this.controller?.abort(new RuntimeError('timeout', 'command deadline passed'))
	}
}

/** A frame that passed the envelope checks. */
interface Job {
	entry: RegisteredCommand
	frame: Record<string, unknown>
	userbotId: number
	requestId: RequestId | undefined
}

/**
 * Turns one text frame into exactly one reply. The checks run in the order of the contract's frame
 * table: envelope, registry, userbot_id, company scope, the command's input, authorization; then the
 * command runs under a deadline. Every outcome, success or failure, leaves through `conn.send` once.
 */
export function createDispatcher(ctx: AppContext, registry: ReadonlyMap<string, RegisteredCommand>) {
	const { config, log } = ctx
	const timeoutMs = config.commandTimeoutMs
	// Every command gets the same allowance, so deadlines fall in arrival order: one queue, one timer.
	const deadlines = createDeadlineQueue()

	function describe(err: unknown, action: string, userbotId: number): { error: string; result?: unknown } {
		const error = wordError(err)
		if (err instanceof TdError && err.code === 406) {
			log.warn('hidden TDLib error', { action, userbotId, tdCode: err.code, tdMessage: err.message })
		} else if (error === E.INTERNAL) {
			log.error('command failed', { action, userbotId, error: err instanceof Error ? err : String(err) })
		}
		return err instanceof CommandError ? { error, result: err.result } : { error }
	}

	async function execute(conn: Connection, job: Job, received: number): Promise<void> {
		const { entry, frame, userbotId, requestId } = job
		const { command } = entry
		const action = command.name
		// The deadline runs from the frame's arrival: a slow userbot lookup counts against it too.
		const running = new Running(received + timeoutMs, conn, () =>
			errorReply(userbotId, `${action}_error`, E.TIMEOUT, requestId),
		)
		deadlines.add(running)
		const finish = (reply: string) => {
			if (running.done) return
			running.done = true
			deadlines.settle(running)
			conn.send(reply)
		}
		const fail = (error: string, result?: unknown) =>
			finish(errorReply(userbotId, `${action}_error`, error, requestId, result))

		// The socket may have outlived its credential (logout, revocation, expiry) since its upgrade.
		let admitted: boolean
		try {
			const check = conn.admit()
			admitted = check === true || check === false ? check : await check
		} catch (err) {
			log.error('credential check failed', { error: err instanceof Error ? err : String(err) })
			return fail(E.INTERNAL)
		}
		if (!admitted) {
			// The socket is closing for it: nobody to answer.
			running.done = true
			deadlines.settle(running)
			return
		}

		let record: Awaited<ReturnType<AppContext['userbots']['lookup']>>
		try {
			record = await ctx.userbots.lookup(userbotId)
		} catch (err) {
			log.error('userbot lookup failed', { userbotId, error: err instanceof Error ? err : String(err) })
			return fail(E.INTERNAL)
		}
		if (!record || record.companyId !== conn.principal.companyId) return fail(E.USERBOT_NOT_FOUND)

		const parsed = v.safeParse(command.input, frame)
		if (!parsed.success) return fail(parsed.issues[0].message)

		const runtime = ctx.runtime
		if (command.requiresAuthorization !== false) {
			const state = runtime?.authorizationState(userbotId)
			// No running client (no backend, or still being restored at start) says nothing about its
			// log-in: the client is unavailable, not unauthorized.
			if (state === undefined) return fail(E.RUNTIME_UNAVAILABLE)
			if (state !== READY) return fail(E.USERBOT_NOT_AUTHORIZED)
		}

		const invoke: TdInvoke = (request) => {
			if (!runtime) return Promise.reject(new RuntimeError('unavailable', 'no Telegram runtime'))
			// A command sends only what it declares: the catalog and the conformance report stay true.
			if (!command.methods.includes(request._)) {
				log.error('command sent a TDLib method it does not declare', { action, method: request._ })
				return Promise.reject(new RuntimeError('bad_request', 'undeclared TDLib method'))
			}
			const timeoutMs = Math.max(1, Math.ceil(running.at - performance.now()))
			// `timeoutMs` ends the request at the command's deadline. A signal goes along only when `run`
			// made one: an abort listener per request cost ~7% of the gateway's CPU under load, and a
			// request of a closed socket is then merely answered into the void (or times out).
			return runtime.invoke(userbotId, request, { signal: running.signalIfMade, timeoutMs, label: action })
		}
		const commandCtx: CommandContext = {
			userbotId,
			principal: conn.principal,
			invoke,
			get signal() {
				return running.signal
			},
			uploadedFilePath: (ref) => resolveUploadedFile(config.dataDir, userbotId, ref),
		}
		try {
			const result = await command.run(parsed.output, commandCtx)
			finish(successReply(userbotId, action, result, requestId))
		} catch (err) {
			if (running.done) return
			const { error, result } = describe(err, action, userbotId)
			fail(error, result)
		}
	}

	/** The envelope checks of the frame table: an error reply, or what the command needs to run. */
	function envelope(text: string): string | Job {
		let frame: unknown
		try {
			frame = JSON.parse(text)
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
		const entry = registry.get(action)
		const errorType = `${action}_error`
		if (!entry) return errorReply(userbotId, errorType, E.UNKNOWN_ACTION, requestId)
		if (rawId === undefined || rawId === null)
			return errorReply(null, errorType, E.USERBOT_ID_REQUIRED, requestId)
		if (userbotId === null) {
			// An integer beyond 2^53 is an integer: no userbot has such an id.
			if (isIntegral(rawId)) return errorReply(null, errorType, E.USERBOT_NOT_FOUND, requestId)
			return errorReply(null, errorType, E.USERBOT_ID_NOT_INTEGER, requestId)
		}
		return { entry, frame: fields, userbotId, requestId }
	}

	/** Handles one text frame. Never throws; never sends more than one reply. */
	function handle(conn: Connection, text: string): void {
		const received = performance.now()
		const checked = envelope(text)
		if (typeof checked === 'string') {
			conn.send(checked)
			return
		}
		if (conn.inFlight >= MAX_IN_FLIGHT) {
			const { userbotId, requestId } = checked
			conn.send(errorReply(userbotId, `${checked.entry.command.name}_error`, E.TOO_MANY_IN_FLIGHT, requestId))
			return
		}
		conn.inFlight++
		execute(conn, checked, received).then(
			() => {
				conn.inFlight--
			},
			(err) => {
				conn.inFlight--
				// execute answers every outcome itself; reaching here is a bug in the gateway.
				log.error('gateway dispatch failed', { error: err instanceof Error ? err : String(err) })
			},
		)
	}

	return { handle }
}
