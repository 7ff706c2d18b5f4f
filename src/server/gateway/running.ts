import { errorReply, type FrameRequestId as RequestId } from '../../common/wire/envelope'
import { GatewayErrors as E } from '../../common/wire/errors'
import type { Deadline, DeadlineQueue } from '../../runtime/supervisor/deadlines'
import { RuntimeError } from '../../runtime/telegram/types'
import type { Principal } from '../auth/types'
import type { CommandOutcome } from '../metrics/metrics'

/** One open WebSocket, as the dispatcher sees it (src/server/gateway/socket.ts is the one there is). */
export interface Connection {
	readonly principal: Principal
	/** The client's address (after `TRUSTED_PROXIES`), for the audit log. */
	readonly client?: string
	/** Aborted when the socket closes. */
	readonly signal: AbortSignal
	/** Sends one serialized reply; false (nothing sent) once the socket has ended. */
	send(reply: string): boolean
	/**
	 * Whether the credential the socket was opened with still holds: from memory when it can tell,
	 * else a promise. False closes the socket (1008), after the commands in flight were answered.
	 */
	admit(): boolean | Promise<boolean>
	/** Commands accepted and not yet answered. */
	readonly runningCount: number
	/** The frame characters of those commands: what they hold in memory until answered. */
	readonly runningChars: number
	/**
	 * Set once the socket must take no new command (its credential expired): each new one is answered
	 * with this string, while those running finish.
	 */
	readonly refusing: string | null
	/**
	 * The server is stopping: a new command is not run and gets no reply of its own; the close
	 * (1001) that comes once the running ones are answered is its answer.
	 */
	readonly leaving: boolean
	/** A command was accepted, holding `chars` characters of frame until it is answered. */
	started(running: Running, chars: number): void
	/** A command ended with `reply` (null: dropped, nobody to answer). */
	answered(running: Running, chars: number, reply: string | null): void
	/** Hears how each command ended and how long it took (the metrics). */
	observe(action: string, outcome: CommandOutcome, seconds: number): void
}

/**
 * A command between validation and its one reply. Whatever ends it first (its result, its
 * deadline, the socket's credential ending) sends that reply; later outcomes are dropped. Its
 * AbortSignal is made only when `run` asks for it (most commands never do): it aborts at the
 * deadline, when the command is ended from outside, or when the socket closes.
 */
export class Running implements Deadline {
	done = false
	/** Also given the reply (a command sent with `"webhook": true`: its `command.result` event). */
	onReply: ((reply: string) => void) | undefined
	private controller: AbortController | undefined
	/** Takes the command's listener off its socket's signal: a socket outlives thousands of commands. */
	private detach: (() => void) | undefined
	private readonly started = performance.now()
	constructor(
		readonly at: number,
		readonly action: string,
		readonly userbotId: number | null,
		readonly requestId: RequestId | undefined,
		private readonly conn: Connection,
		private readonly deadlines: DeadlineQueue,
		/** Characters of the frame it came in, counted against the connection's budget. */
		private readonly chars = 0,
	) {
		conn.started(this, chars)
	}

	get signal(): AbortSignal {
		if (!this.controller) {
			const controller = new AbortController()
			this.controller = controller
			const closed = this.conn.signal
			if (closed.aborted) controller.abort(closed.reason)
			else if (!this.done) {
				const onClose = () => controller.abort(closed.reason)
				closed.addEventListener('abort', onClose, { once: true })
				this.detach = () => closed.removeEventListener('abort', onClose)
			}
		}
		return this.controller.signal
	}

	/** The signal if `run` asked for one, for the runtime to drop the request early. */
	get signalIfMade(): AbortSignal | undefined {
		return this.controller?.signal
	}

	/** Sends `reply` as this command's answer, unless it already has one. */
	finish(reply: string, outcome: CommandOutcome = 'ok'): void {
		if (this.done) return
		this.done = true
		this.deadlines.settle(this)
		this.close(reply, outcome)
	}

	/** Answers `<action>_error` with `error` (and a partial `result`), unless already answered. */
	fail(error: string, result?: unknown): void {
		this.finish(errorReply(this.userbotId, `${this.action}_error`, error, this.requestId, result), 'error')
	}

	/** Ended from outside (the socket's credential was revoked): answered with `error`, `run` told to stop. */
	end(error: string): void {
		if (this.done) return
		this.fail(error)
		this.controller?.abort(new RuntimeError('unavailable', error))
	}

	/** Settles without a reply: the socket is gone, nobody is left to answer; `run` is told to stop. */
	drop(): void {
		if (this.done) return
		this.done = true
		this.deadlines.settle(this)
		this.close(null, 'dropped')
		this.controller?.abort(new Error('connection closed'))
	}

	/** The deadline passed first (the deadline queue calls it once). */
	expire(): void {
		if (this.done) return
		this.done = true
		this.controller?.abort(new RuntimeError('timeout', 'command deadline passed'))
		this.close(errorReply(this.userbotId, `${this.action}_error`, E.TIMEOUT, this.requestId), 'timeout')
	}

	private close(reply: string | null, outcome: CommandOutcome): void {
		this.detach?.()
		this.detach = undefined
		this.conn.observe(this.action, outcome, (performance.now() - this.started) / 1000)
		this.conn.answered(this, this.chars, reply)
		if (reply !== null) this.onReply?.(reply)
	}
}
