import { successReply } from '../../common/wire/envelope'
import { GatewayErrors as E } from '../../common/wire/errors'
import { MAX_WAIT_SECONDS } from '../../common/wire/limits'
import { retryAfterOf } from '../../runtime/flood/governor'
import type { DeadlineQueue } from '../../runtime/supervisor/deadlines'
import type { TelegramRuntime } from '../../runtime/supervisor/types'
import { RuntimeError, TdError, type TdInvoke, type TdUpdate } from '../../runtime/telegram/types'
import { type CommandContext, type CommandDefinition, CommandError } from '../commands/define'
import { toInt } from '../commands/frame-values'
import { reachesPeople, reachingPrivateChats } from '../commands/reach-chat'
import { checkTdRequest } from '../commands/td-request'
import { resolveUploadedFile } from '../commands/uploads'
import type { AppContext, UserbotStateReader } from '../context'
import type { ListenersEnd } from '../updates/listeners'
import { auditCommand } from './audit'
import { parseInput } from './command-input'
import { wordError } from './errors'
import type { Job } from './frame-checks'
import type { guessCheck } from './guesses'
import { userbotFound, wireRefusal } from './reach'
import { type Connection, Running } from './running'

/**
 * One command frame after its envelope: its checks, its run and its one reply.
 */

const READY = 'authorizationStateReady'

/** What every command's path shares, built once per dispatcher. */
export interface CommandPath {
	ctx: AppContext
	/** The one owner of the userbots' states, asked whether an account is ready. */
	states: UserbotStateReader
	/** The allowance of every command, from its frame's arrival. */
	timeoutMs: number
	deadlines: DeadlineQueue
	/**
	 * The deadlines of commands that wait (`waits`), one queue per allowance: within each, deadlines
	 * still fall in arrival order.
	 */
	waitDeadlines(waitMs: number): DeadlineQueue
	guesses: ReturnType<typeof guessCheck>
}

/** How a command is refused before it runs: a wire error (and a partial result), or no reply at all. */
type Refusal = { error: string; result?: unknown } | 'dropped'

/**
 * One command frame, from its checks to its one reply, in the order of the contract's frame table
 * after the envelope: the socket's credential, the userbot and its company, the API key's scope, the
 * member's permission, the command's input, the account's authorization, the guess limit; then the
 * command runs under the deadline. Every outcome leaves through its `Running` once.
 */
export async function runCommandFrame(
	path: CommandPath,
	conn: Connection,
	job: Job,
	received: number,
	chars: number,
): Promise<void> {
	const waitMs = waitOf(job.entry.command, job.frame)
	const deadlines = waitMs === 0 ? path.deadlines : path.waitDeadlines(waitMs)
	// The deadline runs from the frame's arrival: a slow userbot lookup counts against it too.
	const running = new Running(
		received + path.timeoutMs + waitMs,
		job.entry.command.name,
		job.userbotId,
		job.requestId,
		conn,
		deadlines,
		chars,
	)
	deadlines.add(running)
	const checked = await checks(path, conn, job, running)
	if (checked === 'dropped') return running.drop()
	if ('error' in checked) return running.fail(checked.error, checked.result)
	await run(path, conn, job, running, checked.input)
}

/**
 * How long beyond the ordinary allowance a command that waits may take, in ms: its frame's field as
 * it stands (the input is checked later, in the contract's order; a value out of range is refused
 * then), else the default, never past MAX_WAIT_SECONDS.
 */
function waitOf(command: CommandDefinition, frame: Readonly<Record<string, unknown>>): number {
	const waits = command.waits
	if (!waits) return 0
	const given = toInt(frame[waits.field])
	const seconds = given !== undefined && given >= 1 ? given : waits.default
	return Math.min(seconds, MAX_WAIT_SECONDS) * 1000
}

/** The checks before a command runs: its input as parsed, or how it is refused. */
async function checks(
	path: CommandPath,
	conn: Connection,
	job: Job,
	running: Running,
): Promise<Refusal | { input: unknown }> {
	const { ctx } = path
	const { command } = job.entry
	const admitted = admit(ctx, conn)
	const early = (admitted instanceof Promise ? await admitted : admitted) ?? (await reach(ctx, conn, job))
	if (early) return early
	// Asked for: the reply goes to the company's webhooks too, as a `command.result` event.
	if (job.frame.webhook === true)
		running.onReply = (reply) =>
			ctx.updates.emit(job.userbotId, 'command.result', { chat_update: JSON.parse(reply) })
	const parsed = parseInput(command, job.frame)
	if (!parsed.ok) return { error: parsed.error }
	const unready = authorization(path.states, path.ctx.runtime, command, job.userbotId)
	if (unready) return unready
	if (command.checksSecret) {
		const refused = await path.guesses.take(job.userbotId)
		if (refused) return refused
	}
	return { input: parsed.input }
}

/**
 * The socket may have outlived its credential (logout, revocation, expiry) since its upgrade: from
 * memory when the socket can tell (the hot path waits for nothing), else once the check is back.
 */
function admit(ctx: AppContext, conn: Connection): Refusal | null | Promise<Refusal | null> {
	const failed = (err: unknown): Refusal => {
		ctx.log.error('credential check failed', { error: err instanceof Error ? err : String(err) })
		return { error: E.INTERNAL }
	}
	// Refused: the socket is closing for it, and its running commands (this one too) were answered.
	const outcome = (admitted: boolean): Refusal | null => (admitted ? null : 'dropped')
	try {
		const check = conn.admit()
		return check === true || check === false ? outcome(check) : check.then(outcome, failed)
	} catch (err) {
		return failed(err)
	}
}

/**
 * The command's policy entry, for the principal as admit just found it (a grant made or revoked a
 * moment ago counts): the userbot in the caller's company and an API key's reach, the key's groups,
 * commands and `read_only`, the member's grant.
 */
async function reach(ctx: AppContext, conn: Connection, job: Job): Promise<Refusal | null> {
	const { userbotId } = job
	let found: Awaited<ReturnType<typeof userbotFound>>
	try {
		found = await userbotFound(ctx, userbotId)
	} catch (err) {
		ctx.log.error('userbot lookup failed', { userbotId, error: err instanceof Error ? err : String(err) })
		return { error: E.INTERNAL }
	}
	const refused = wireRefusal(conn.principal, job.entry.policy, found)
	return refused ? { error: refused } : null
}

/** A command that needs a logged-in account runs only on a client that is ready. */
function authorization(
	states: UserbotStateReader,
	runtime: TelegramRuntime | null | undefined,
	command: CommandDefinition,
	userbotId: number,
): Refusal | null {
	if (command.requiresAuthorization === false) return null
	// The state owner's word, not the runtime's cache: one answer for REST, pushes and commands.
	const state = states.authorizationState(userbotId)
	// No running client (no backend, or still being restored at start) says nothing about its
	// log-in: the client is unavailable, not unauthorized; one whose folder another process still
	// holds starts as soon as it lets go (docs/shards.md#one-owner-per-account).
	if (state === undefined)
		return { error: runtime?.heldElsewhere?.(userbotId) ? E.RUNTIME_HELD_ELSEWHERE : E.RUNTIME_UNAVAILABLE }
	return state === READY ? null : { error: E.USERBOT_NOT_AUTHORIZED }
}

/** Runs the command and answers with its result, or with how it failed. */
async function run(path: CommandPath, conn: Connection, job: Job, running: Running, input: unknown) {
	const { ctx } = path
	const { command } = job.entry
	const { userbotId, requestId } = job
	const listening: Array<() => void> = []
	try {
		const result = await command.run(input, commandContext(ctx, conn, job, running, listening))
		// The secret was right: the try no longer counts (given back before the answer, in order).
		if (command.checksSecret) await path.guesses.giveBack(userbotId)
		if (command.audit) await auditCommand(ctx, conn, userbotId, command, input)
		running.finish(successReply(userbotId, command.name, result, requestId))
	} catch (err) {
		if (running.done) return
		const { error, result } = failureOf(ctx, err, command.name, userbotId)
		running.fail(error, result)
	} finally {
		for (const stop of listening) stop()
	}
}

/** What a command's `run` is given: its userbot, the caller, TDLib, its signal, files, updates. */
function commandContext(
	ctx: AppContext,
	conn: Connection,
	job: Job,
	running: Running,
	listening: Array<() => void>,
): CommandContext {
	const { userbotId } = job
	let kinds: ReadonlySet<string> | undefined
	return {
		userbotId,
		principal: conn.principal,
		// A user id as a chat id opens the person's private chat, for the commands that declare it;
		// never for td_invoke, which sends the one request it was given (its methods are an allow-list).
		invoke:
			reachesPeople(job.entry.command.methods) && !job.entry.policy.tdInvoke
				? reachingPrivateChats(tdInvoke(ctx, job, running))
				: tdInvoke(ctx, job, running),
		get signal() {
			return running.signal
		},
		uploadedFilePath: (ref) => resolveUploadedFile(ctx.config.dataDir, userbotId, ref),
		onUpdate(fn) {
			kinds ??= new Set(job.entry.command.updates ?? [])
			// Kept by userbot and kind (src/server/updates/listeners.ts); the userbot going away ends the command.
			const stop = ctx.updates.listen(userbotId, {
				kinds,
				update: (update) => fn(update as TdUpdate),
				ended: (why) => running.end(GONE[why]),
			})
			listening.push(stop)
			return stop
		},
	}
}

/** A waiting command's answer when its userbot goes away: the answers a new command would get. */
const GONE: Record<ListenersEnd, string> = {
	deleted: E.USERBOT_NOT_FOUND,
	logged_out: E.USERBOT_NOT_AUTHORIZED,
	stopped: E.RUNTIME_UNAVAILABLE,
}

/** TDLib as a command reaches it: only the methods it declares, until its deadline. */
function tdInvoke(ctx: AppContext, job: Job, running: Running): TdInvoke {
	const { config, log, runtime } = ctx
	const { userbotId } = job
	const { command } = job.entry
	return (request) => {
		if (!runtime) return Promise.reject(new RuntimeError('unavailable', 'no Telegram runtime'))
		// A command sends only what it declares (the catalog and the conformance report stay true), and
		// only what TDLib's schema allows: the check a shard makes again (src/server/commands/td-request.ts).
		try {
			checkTdRequest(request, {
				userbotId,
				methods: command.methods,
				dataDir: config.dataDir,
				emulator: config.telegram.backend === 'emulator',
			})
		} catch (err) {
			log.error('command sent a TDLib request it may not send', {
				action: command.name,
				method: request._,
				error: String(err),
			})
			return Promise.reject(err)
		}
		const timeoutMs = Math.max(1, Math.ceil(running.at - performance.now()))
		// `timeoutMs` ends the request at the command's deadline. A signal goes along only when `run`
		// made one: an abort listener per request cost ~7% of the gateway's CPU under load, and a
		// request of a closed socket is then merely answered into the void (or times out).
		return runtime.invoke(userbotId, request, {
			signal: running.signalIfMade,
			timeoutMs,
			label: command.name,
		})
	}
}

/** How a command's failure is answered; what the client may not see goes to the log. */
function failureOf(
	ctx: AppContext,
	err: unknown,
	action: string,
	userbotId: number,
): { error: string; result?: unknown } {
	const error = wordError(err)
	if (err instanceof TdError && err.code === 406) {
		ctx.log.warn('hidden TDLib error', { action, userbotId, tdCode: err.code, tdMessage: err.message })
	} else if (error === E.INTERNAL) {
		ctx.log.error('command failed', { action, userbotId, error: err instanceof Error ? err : String(err) })
	}
	if (err instanceof CommandError) return { error, result: err.result }
	// A flood wait (the governor's refusal or TDLib's own 429): when to try again, in seconds.
	const retryAfter = err instanceof TdError && err.code === 429 ? retryAfterOf(err.message) : undefined
	return retryAfter === undefined ? { error } : { error, result: { retry_after: retryAfter } }
}
