import { errorReply } from '../../common/wire/envelope'
import { GatewayErrors as E } from '../../common/wire/errors'
import { MAX_IN_FLIGHT, MAX_IN_FLIGHT_CHARS } from '../../common/wire/limits'
import { createDeadlineQueue, type DeadlineQueue } from '../../runtime/supervisor/deadlines'
import { toInt } from '../commands/frame-values'
import type { RegisteredCommand } from '../commands/registry'
import type { AppContext, UserbotStateReader } from '../context'
import { type CommandPath, runCommandFrame } from './command-path'
import { type ConnectionAction, checkEnvelope, type OwnFrame } from './frame-checks'
import { guessCheck } from './guesses'
import { type Connection, Running } from './running'

export { MAX_FRAME_DEPTH, MAX_IN_FLIGHT, MAX_IN_FLIGHT_CHARS } from '../../common/wire/limits'
export { type ConnectionAction, nestedDeeperThan, userbotIdOf } from './frame-checks'
export type { Connection } from './running'

export interface DispatcherOptions {
	/** Frames the gateway answers for the connection, by action name. */
	connectionActions?: ReadonlyMap<string, ConnectionAction>
	/** Whether an account is ready, in its state owner's word. */
	states: UserbotStateReader
}

/**
 * Turns one text frame into exactly one reply. The checks run in the order of the contract's frame
 * table: envelope (frame-checks.ts), then the connection's own limits here, then the command's path
 * (command-path.ts) or the connection's own frame. Every outcome, success or failure, leaves through
 * its `Running` once.
 */
export function createDispatcher(
	ctx: AppContext,
	registry: ReadonlyMap<string, RegisteredCommand>,
	opts: DispatcherOptions,
) {
	const connectionActions = opts.connectionActions ?? new Map<string, ConnectionAction>()
	const waitQueues = new Map<number, DeadlineQueue>()
	const path: CommandPath = {
		ctx,
		states: opts.states,
		timeoutMs: ctx.config.commandTimeoutMs,
		// Every command gets the same allowance, so deadlines fall in arrival order: one queue, one timer.
		deadlines: createDeadlineQueue(),
		// A command that waits (wait_for_message) has its own allowance: one queue, one timer, per allowance.
		waitDeadlines(waitMs) {
			let queue = waitQueues.get(waitMs)
			if (!queue) {
				queue = createDeadlineQueue()
				waitQueues.set(waitMs, queue)
			}
			return queue
		},
		guesses: guessCheck(ctx),
	}
	// The kinds commands wait for (send_message's wait_sent) are forwarded whatever UPDATE_KINDS says.
	const awaited = [...new Set([...registry.values()].flatMap((e) => e.command.updates ?? []))]
	if (awaited.length > 0) ctx.updates.want(registry, awaited)

	/** Handles one text frame. Never throws; never sends more than one reply. */
	function handle(conn: Connection, text: string): void {
		// Stopping: nothing new runs; the coming close answers it (and tells the client it never ran).
		if (conn.leaving) return
		const received = performance.now()
		const checked = checkEnvelope(text, registry, connectionActions)
		if (typeof checked === 'string') {
			conn.send(checked)
			return
		}
		const action = 'entry' in checked ? checked.entry.command.name : String(checked.frame.action)
		const userbotId = 'entry' in checked ? checked.userbotId : (toInt(checked.frame.userbot_id) ?? null)
		const refused =
			conn.refusing ??
			(conn.runningCount >= MAX_IN_FLIGHT || conn.runningChars + text.length > MAX_IN_FLIGHT_CHARS
				? E.TOO_MANY_IN_FLIGHT
				: null)
		if (refused !== null) {
			conn.send(errorReply(userbotId, `${action}_error`, refused, checked.requestId))
			return
		}
		if (!('entry' in checked)) {
			const running = new Running(
				received + path.timeoutMs,
				action,
				userbotId,
				checked.requestId,
				conn,
				path.deadlines,
				text.length,
			)
			path.deadlines.add(running)
			answerOwnFrame(ctx, conn, checked, running)
			return
		}
		runCommandFrame(path, conn, checked, received, text.length).catch((err) => {
			// The command's path answers every outcome itself; reaching here is a bug in the gateway.
			ctx.log.error('gateway dispatch failed', { error: err instanceof Error ? err : String(err) })
		})
	}

	return { handle }
}

/** A connection's own frame (`authenticate`, `subscribe`): its one reply, then what follows it. */
function answerOwnFrame(ctx: AppContext, conn: Connection, own: OwnFrame, running: Running): void {
	own.action(conn, own.frame, own.requestId).then(
		(outcome) => {
			if (typeof outcome === 'string') return running.finish(outcome)
			if (running.done) return
			running.finish(outcome.reply)
			outcome.after()
		},
		(err) => {
			ctx.log.error('connection frame failed', {
				action: running.action,
				error: err instanceof Error ? err : String(err),
			})
			running.fail(E.INTERNAL)
		},
	)
}
