import { type Clock, sleepOn } from '../flood/clock'
import type { BackendClient } from '../telegram/backend'
import type { Liveness } from './liveness'
import type { ChildMessage, StartMessage, WireError } from './protocol'

/** One client of the supervisor child (`child-host.ts`). */
export interface Entry {
	client: BackendClient
	state: string
	waiters: Array<(state: string) => void>
	/** Its start was recorded: TDLib opened its folder. */
	recorded?: boolean
	/** Its stop was recorded (it may close twice: by itself, then by `stop`). */
	stopped?: boolean
	/** The parent's requests sent to this client and not answered yet, by message id. */
	inflight: Set<number>
	/** Given up on (it stopped answering): what it says from now on is dropped. */
	abandoned?: boolean
	/** How it was started, to start it again. */
	start: StartMessage
}

/** What a request in flight in a client that stopped answering is told (once; it is not sent again). */
export const CLIENT_HUNG: WireError = {
	code: 'runtime_down',
	message: 'the TDLib client stopped answering; it is being restarted',
}

/** The child host's parts a restart works on. */
export interface RestartContext {
	clients: Map<number, Entry>
	/** Starts under way: requests for the userbot wait on it. */
	starting: Map<number, Promise<Entry>>
	/** Restarts under way: `cancel` gives one up (a stop came). */
	restarts: Map<number, { cancel: () => void }>
	liveness: Liveness
	clock: Clock
	/** How long the hung client's close may take before the child gives up on itself. */
	closeTimeoutMs: number
	send: (message: ChildMessage) => void
	closeEntry: (userbotId: number, entry: Entry) => Promise<void>
	startClient: (msg: StartMessage) => Promise<Entry>
	stuck?: (userbotId: number) => void
}

/**
 * A client that stopped answering: given up on (what it had in flight is answered once with
 * `CLIENT_HUNG`, never sent again: it may have gone out), closed, and started again from its own
 * database after a pause that doubles with each hang in a row (and with each start again that
 * fails). Requests that come meanwhile wait for the new client, as during a start. The other
 * clients of the child are not touched. A close that does not finish leaves the client's database
 * locked: the child then gives up on itself (`stuck`), and the parent restarts every client.
 */
export function restartHung(ctx: RestartContext, userbotId: number): void {
	const entry = ctx.clients.get(userbotId)
	if (!entry || ctx.starting.has(userbotId)) return
	entry.abandoned = true
	ctx.clients.delete(userbotId)
	ctx.send({ type: 'client_restarting', userbotId })
	for (const id of entry.inflight) ctx.send({ type: 'result', id, ok: false, error: CLIENT_HUNG })
	entry.inflight.clear()
	const delayMs = ctx.liveness.nextDelay(userbotId)
	ctx.send({
		type: 'log',
		level: 'warn',
		msg: 'a TDLib client stopped answering; it is restarted',
		fields: { userbotId, delayMs },
	})
	let cancelled = false
	let wake = () => {}
	ctx.restarts.set(userbotId, {
		cancel: () => {
			cancelled = true
			wake()
		},
	})
	const pause = (ms: number) =>
		Promise.race([
			sleepOn(ctx.clock, ms),
			new Promise<void>((resolve) => {
				wake = resolve
			}),
		])
	const gone = () => new Error('stopped while restarting')
	const reopen = async (): Promise<Entry> => {
		const closed = await Promise.race([
			ctx.closeEntry(userbotId, entry).then(() => true),
			sleepOn(ctx.clock, ctx.closeTimeoutMs).then(() => false),
		])
		if (!closed) {
			ctx.stuck?.(userbotId)
			throw new Error('the hung client did not close')
		}
		for (let delay = delayMs; ; delay = ctx.liveness.nextDelay(userbotId)) {
			await pause(delay)
			if (cancelled) throw gone()
			const next = await ctx.startClient(entry.start).catch(() => undefined)
			if (next && cancelled) {
				ctx.clients.delete(userbotId)
				await ctx.closeEntry(userbotId, next)
			}
			if (cancelled) throw gone()
			if (next) return next
		}
	}
	const p = reopen().finally(() => {
		ctx.starting.delete(userbotId)
		ctx.restarts.delete(userbotId)
	})
	ctx.starting.set(userbotId, p)
	p.catch(() => undefined)
}
