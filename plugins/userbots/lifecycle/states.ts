import type { RuntimeEvent, UpdateHub } from 'userbot-gateway/plugin'
import { STATES } from './auth-states'
import { announceState, type DeliveryContext, deliverState, type StateDelivery } from './deliver-state'
import { userbotErrors } from './errors'

/** The states a client passes through as it is logged out and closed. */
const ENDING = new Set<string>([STATES.loggingOut, STATES.closing, STATES.closed])
/** States after which `Ready` means a log-in just finished (not a client restored from its database). */
const LOGGING_IN = new Set<string>([
	STATES.phone,
	STATES.premium,
	STATES.emailAddress,
	STATES.emailCode,
	STATES.code,
	STATES.otherDevice,
	STATES.registration,
	STATES.password,
])

/**
 * Where a userbot's client is, in the owner's words: `unknown` (nothing heard since this process or
 * its runtime started), `starting`, `logging_in` (waiting for a phone number, a code, a password, a
 * QR confirmation or a name), `ready`, `ending` (logging out or closing), `closed`, `deleted` (final).
 */
export type Phase = 'unknown' | 'starting' | 'logging_in' | 'ready' | 'ending' | 'closed' | 'deleted'

export interface StateView {
	phase: Phase
	/** TDLib's authorization state as last heard (an event, or a start's reply). */
	state: string | undefined
	/** Counts the states heard; never goes back, across runtime restarts too. */
	seq: number
}

interface Entry {
	companyId?: number
	state?: string
	detail?: Record<string, unknown>
	seq: number
	deleted: boolean
	/** A start in flight: asked again, it is joined rather than sent twice. */
	starting?: Promise<string>
	/**
	 * Set when a start begins, cleared by the new client's first state: until then a closing state is
	 * the previous client's (its events and the start's reply may come by different ways, as over the
	 * bus) and says nothing of the client now running.
	 */
	awaitingNew: boolean
}

export type StatesContext = DeliveryContext & { updates?: Pick<UpdateHub, 'clear' | 'end'> }

/**
 * The one owner of each userbot's state in this process: its phase, TDLib's authorization state,
 * the sequence a log-in step waits on, and its deletion. Fed by the runtime's events (the local
 * supervisor and a shard on the bus alike) and by the replies of the starts it runs; the REST routes,
 * the WebSocket commands and the delete ask it. Each state heard is stored on the userbot's row and
 * pushed to the company's sockets, per userbot one after the other, in the order they happened.
 */
export class UserbotStates {
	private readonly entries = new Map<number, Entry>()
	private readonly queues = new Map<number, Promise<void>>()
	private readonly waiters = new Map<number, Set<() => void>>()

	constructor(private readonly ctx: StatesContext) {}

	private entry(userbotId: number): Entry {
		let e = this.entries.get(userbotId)
		if (!e) {
			e = { seq: 0, deleted: false, awaitingNew: false }
			this.entries.set(userbotId, e)
		}
		return e
	}

	/** The company a userbot belongs to, so its states reach that company's sockets. */
	remember(userbotId: number, companyId: number): void {
		this.entry(userbotId).companyId = companyId
	}

	view(userbotId: number): StateView {
		const e = this.entries.get(userbotId)
		return { phase: this.phase(userbotId), state: e?.state, seq: e?.seq ?? 0 }
	}

	phase(userbotId: number): Phase {
		const e = this.entries.get(userbotId)
		if (!e) return 'unknown'
		if (e.deleted) return 'deleted'
		if (e.starting && (e.state === undefined || e.awaitingNew)) return 'starting'
		const s = e.state
		if (s === undefined) return 'unknown'
		if (s === STATES.ready) return 'ready'
		if (s === STATES.closed) return 'closed'
		if (ENDING.has(s)) return 'ending'
		return s === STATES.parameters ? 'starting' : 'logging_in'
	}

	/** Final from the moment a delete begins: true when it had begun already. */
	markDeleted(userbotId: number): boolean {
		const e = this.entry(userbotId)
		const again = e.deleted
		e.deleted = true
		return again
	}

	isDeleted(userbotId: number): boolean {
		return this.entries.get(userbotId)?.deleted === true
	}

	/** Throws the 404 of a userbot whose delete has begun. */
	assertLive(userbotId: number): void {
		if (this.isDeleted(userbotId)) throw userbotErrors.notFound()
	}

	/**
	 * TDLib's authorization state of the client running now: the one answer to "is this account
	 * ready", which the gateway asks before every command that needs a logged-in account. As last
	 * heard here; as the runtime last saw it when nothing was heard of this client (none since this
	 * process or its runtime started, or a start still waits for the new client's first state: what
	 * was heard is the previous client's); undefined when no client runs.
	 */
	authorizationState(userbotId: number): string | undefined {
		const e = this.entries.get(userbotId)
		if (!e || e.state === undefined || (e.starting && e.awaitingNew))
			return this.ctx.runtime?.authorizationState(userbotId)
		return e.state
	}

	/** The state as last heard here; else as the runtime last saw it; else `stored` (the row's). */
	current(userbotId: number, stored: string): string {
		return this.entries.get(userbotId)?.state ?? this.ctx.runtime?.authorizationState(userbotId) ?? stored
	}

	detail(userbotId: number): Record<string, unknown> | undefined {
		return this.entries.get(userbotId)?.detail
	}

	seq(userbotId: number): number {
		return this.entries.get(userbotId)?.seq ?? 0
	}

	/**
	 * Runs `send` (the runtime's start) unless a start of the userbot is in flight, which is joined;
	 * refused (404) once its delete has begun, but for the delete's own.
	 * Its reply is the state of the new client unless one of the new client's own events came first.
	 */
	start(userbotId: number, send: () => Promise<string>, removing = false): Promise<string> {
		const e = this.entry(userbotId)
		// A deleted userbot's client starts again only for its delete (to log it out).
		if (e.deleted && !removing) return Promise.reject(userbotErrors.notFound())
		if (e.starting) return e.starting
		e.awaitingNew = true
		const started = send()
			.then(
				(state) => {
					// Still set until the new client's first event: a closing heard later is the old one's.
					if (!e.deleted && e.awaitingNew) this.record(e, userbotId, state, undefined)
					return state
				},
				(err: unknown) => {
					e.awaitingNew = false
					throw err
				},
			)
			.finally(() => {
				if (e.starting === started) e.starting = undefined
			})
		e.starting = started
		return started
	}

	/** The start (or restart) of the userbot under way, to be joined; undefined when none is. */
	starting(userbotId: number): Promise<string> | undefined {
		return this.entries.get(userbotId)?.starting
	}

	/** The runtime restarted: every client's state is unknown until it reports again; numbers go on. */
	reset(): void {
		for (const e of this.entries.values()) {
			e.state = undefined
			e.detail = undefined
		}
	}

	/** A deleted userbot's client is stopped: what was known of it goes, its deletion stays. */
	forget(userbotId: number): void {
		const e = this.entries.get(userbotId)
		if (!e) return
		e.state = undefined
		e.detail = undefined
		e.companyId = undefined
	}

	/** Resolves once a state newer than `seq` was heard, or after `timeoutMs`. */
	async next(userbotId: number, seq: number, timeoutMs: number): Promise<void> {
		if (this.seq(userbotId) > seq) return
		await new Promise<void>((resolve) => {
			const set = this.waiters.get(userbotId) ?? new Set<() => void>()
			this.waiters.set(userbotId, set)
			const done = () => {
				clearTimeout(timer)
				set.delete(done)
				if (set.size === 0 && this.waiters.get(userbotId) === set) this.waiters.delete(userbotId)
				resolve()
			}
			const timer = setTimeout(done, timeoutMs)
			set.add(done)
		})
	}

	/**
	 * A runtime event. A deleted userbot's client is followed no further: only the states of its
	 * logging out and closing are still pushed (to the company it belonged to), never stored; any
	 * other state comes from a client that should not run and is dropped. A previous client's closing
	 * heard after a new start began is pushed and stored as before, but is not the state now.
	 */
	handle(event: RuntimeEvent): void {
		if (event.type !== 'authorization_state') return
		const { userbotId, state, detail } = event
		const e = this.entry(userbotId)
		const deleted = e.deleted
		if (deleted && !ENDING.has(state)) return
		const previous = e.state
		if (!deleted && !(e.awaitingNew && ENDING.has(state))) {
			e.awaitingNew = false
			this.record(e, userbotId, state, detail)
		}
		// The commands waiting on the account (wait_for_message) end with its client: a delete, a
		// log-out (its restart's closing states too), a stop.
		if (ENDING.has(state))
			this.ctx.updates?.end(
				userbotId,
				deleted ? 'deleted' : state === STATES.loggingOut ? 'logged_out' : 'stopped',
			)
		// The account is gone from this userbot: what the hub kept of it is no one's to resume.
		if (state === STATES.loggingOut && !deleted) this.ctx.updates?.clear(userbotId)
		const delivery: StateDelivery = {
			userbotId,
			companyId: e.companyId,
			state,
			detail,
			loggedIn: state === STATES.ready && previous !== undefined && LOGGING_IN.has(previous),
			pushable: () => !e.deleted || ENDING.has(state),
			found: (companyId) => {
				if (!e.deleted) e.companyId = companyId
			},
		}
		this.enqueue(userbotId, () =>
			deleted ? announceState(this.ctx, delivery) : deliverState(this.ctx, delivery),
		)
	}

	/** Waits until every state heard so far is stored and pushed (tests, shutdown). */
	async drain(): Promise<void> {
		await Promise.all([...this.queues.values()])
	}

	private record(e: Entry, userbotId: number, state: string, detail: Record<string, unknown> | undefined) {
		e.state = state
		e.detail = detail
		e.seq++
		for (const fn of [...(this.waiters.get(userbotId) ?? [])]) fn()
	}

	private enqueue(userbotId: number, task: () => Promise<void> | void): void {
		const next = (this.queues.get(userbotId) ?? Promise.resolve()).then(task)
		this.queues.set(userbotId, next)
		void next.finally(() => {
			if (this.queues.get(userbotId) === next) this.queues.delete(userbotId)
		})
	}
}
