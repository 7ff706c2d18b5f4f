import { and, eq, isNull } from 'drizzle-orm'
import { userbot } from '../../db/schema'
import type { AppContext } from '../context'
import type { RuntimeEvent } from '../supervisor/types'
import { successEvent } from '../wire/envelope'
import { phoneFromDetail, publicDetail, STATES } from './auth-states'

/** The states a client passes through as it is logged out and closed (a delete causes them). */
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
/** How long reading the account's own phone number (`getMe`, answered from TDLib's cache) may take. */
const GET_ME_MS = 5_000

interface Seen {
	state: string
	detail?: Record<string, unknown>
	/** Counts the states seen, so a log-in step can wait for the one its request causes. */
	seq: number
}

/**
 * Follows every userbot's authorization state as the runtime reports it: remembers the last one,
 * wakes whoever waits for the next, stores it on the userbot's row and pushes it to the company's
 * WebSocket connections as a `chat_update` of type `authorization_state`. Per userbot the events are
 * handled one after the other, so they are stored and pushed in the order they happened.
 */
export class StateTracker {
	private readonly seen = new Map<number, Seen>()
	private readonly companies = new Map<number, number>()
	private readonly queues = new Map<number, Promise<void>>()
	private readonly waiters = new Map<number, Set<() => void>>()

	constructor(
		private readonly ctx: Pick<AppContext, 'db' | 'log' | 'publish' | 'runtime'>,
		/** Userbots deleted in this process: their clients' events are not theirs to record. */
		private readonly isDeleted: (userbotId: number) => boolean = () => false,
	) {}

	remember(userbotId: number, companyId: number): void {
		this.companies.set(userbotId, companyId)
	}

	state(userbotId: number): string | undefined {
		return this.seen.get(userbotId)?.state
	}

	detail(userbotId: number): Record<string, unknown> | undefined {
		return this.seen.get(userbotId)?.detail
	}

	seq(userbotId: number): number {
		return this.seen.get(userbotId)?.seq ?? 0
	}

	/**
	 * Records a state learnt from a reply (`startClient`) when no event told it first; nothing is
	 * pushed. An event, when it comes, is newer than any reply and wins.
	 */
	note(userbotId: number, state: string): void {
		if (this.seen.has(userbotId)) return
		this.seen.set(userbotId, { state, seq: 1 })
		this.wake(userbotId)
	}

	/** The runtime restarted: every client's state is unknown until it reports again. */
	reset(): void {
		this.seen.clear()
	}

	forget(userbotId: number): void {
		this.seen.delete(userbotId)
		this.companies.delete(userbotId)
	}

	/** Resolves once a state newer than `seq` was seen, or after `timeoutMs`. */
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
	 * A deleted userbot's client is followed no further: only the states of its logging out and
	 * closing are still pushed (to the company it belonged to), never stored; any other state comes
	 * from a client that should not run and is dropped.
	 */
	handle(event: RuntimeEvent): void {
		if (event.type !== 'authorization_state') return
		const { userbotId, state, detail } = event
		const deleted = this.isDeleted(userbotId)
		if (deleted && !ENDING.has(state)) return
		const previous = this.seen.get(userbotId)?.state
		if (!deleted) {
			this.seen.set(userbotId, { state, detail, seq: this.seq(userbotId) + 1 })
			this.wake(userbotId)
		}
		// Known now: a delete forgets the company once the client is stopped.
		const companyId = this.companies.get(userbotId)
		const loggedIn = state === STATES.ready && previous !== undefined && LOGGING_IN.has(previous)
		const prev = this.queues.get(userbotId) ?? Promise.resolve()
		const next = prev.then(() =>
			deleted
				? this.announce(userbotId, companyId, state, detail)
				: this.deliver(userbotId, companyId, state, detail, loggedIn),
		)
		this.queues.set(userbotId, next)
		void next.finally(() => {
			if (this.queues.get(userbotId) === next) this.queues.delete(userbotId)
		})
	}

	/** Waits until every event seen so far is stored (tests, shutdown). */
	async drain(): Promise<void> {
		await Promise.all([...this.queues.values()])
	}

	/** The logged-in account's phone number (digits), or null when TDLib cannot say. */
	private async ownPhone(userbotId: number): Promise<string | null> {
		const runtime = this.ctx.runtime
		if (!runtime) return null
		try {
			const me = await runtime.invoke(
				userbotId,
				{ _: 'getMe' },
				{ timeoutMs: GET_ME_MS, label: 'userbots:ready' },
			)
			const digits = (me.phone_number ?? '').replace(/\D/g, '')
			return digits || null
		} catch (err) {
			this.ctx.log.debug('could not read the phone number of a logged-in userbot', {
				userbotId,
				error: String(err),
			})
			return null
		}
	}

	private wake(userbotId: number): void {
		for (const fn of [...(this.waiters.get(userbotId) ?? [])]) fn()
	}

	/** Pushes a deleted userbot's closing state to the company it belonged to, if known. */
	private announce(
		userbotId: number,
		companyId: number | undefined,
		state: string,
		detail?: Record<string, unknown>,
	): void {
		if (companyId !== undefined) this.publish(userbotId, companyId, state, detail)
	}

	private publish(userbotId: number, companyId: number, state: string, detail?: Record<string, unknown>) {
		this.ctx.publish({
			companyId,
			userbotId,
			message: successEvent(userbotId, 'authorization_state', {
				authorization_state: state,
				...publicDetail(state, detail),
			}),
		})
	}

	private async deliver(
		userbotId: number,
		known: number | undefined,
		state: string,
		detail: Record<string, unknown> | undefined,
		loggedIn: boolean,
	): Promise<void> {
		try {
			let companyId = known
			if (companyId === undefined) {
				const [row] = await this.ctx.db
					.select({ companyId: userbot.companyId })
					.from(userbot)
					.where(and(eq(userbot.id, userbotId), isNull(userbot.deletedAt)))
				if (!row) return
				companyId = row.companyId
				if (!this.isDeleted(userbotId)) this.companies.set(userbotId, companyId)
			}
			// Deleted while this event waited for its turn: neither pushed nor stored.
			if (this.isDeleted(userbotId) && !ENDING.has(state)) return
			// Stored before it is pushed: a client that reads the userbot on hearing the state finds it
			// (and, after a log-in, the account's number) already there. A failed write still pushes.
			await this.store(userbotId, state, detail, loggedIn)
			// Deleted while it was stored (the number is asked of TDLib first): not pushed either.
			if (this.isDeleted(userbotId) && !ENDING.has(state)) return
			this.publish(userbotId, companyId, state, detail)
		} catch (err) {
			this.ctx.log.warn('could not push an authorization state', {
				userbotId,
				state,
				error: err instanceof Error ? err : String(err),
			})
		}
	}

	private async store(
		userbotId: number,
		state: string,
		detail: Record<string, unknown> | undefined,
		loggedIn: boolean,
	): Promise<void> {
		try {
			let phone = phoneFromDetail(detail)?.replace(/\D/g, '')
			// A log-in just finished (by code, password or QR): the account's own number is the truth.
			if (loggedIn) phone = (await this.ownPhone(userbotId)) ?? phone
			await this.ctx.db
				.update(userbot)
				.set(phone ? { authorizationState: state, phoneNumber: phone } : { authorizationState: state })
				.where(and(eq(userbot.id, userbotId), isNull(userbot.deletedAt)))
		} catch (err) {
			this.ctx.log.warn('could not record an authorization state', {
				userbotId,
				state,
				error: err instanceof Error ? err : String(err),
			})
		}
	}
}
