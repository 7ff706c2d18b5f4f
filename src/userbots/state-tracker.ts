import { eq } from 'drizzle-orm'
import { userbot } from '../../db/schema'
import type { AppContext } from '../context'
import type { RuntimeEvent } from '../supervisor/types'
import { phoneFromDetail, publicDetail } from './auth-states'

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

	constructor(private readonly ctx: Pick<AppContext, 'db' | 'log' | 'publish'>) {}

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

	handle(event: RuntimeEvent): void {
		if (event.type !== 'authorization_state') return
		const { userbotId, state, detail } = event
		this.seen.set(userbotId, { state, detail, seq: this.seq(userbotId) + 1 })
		this.wake(userbotId)
		const prev = this.queues.get(userbotId) ?? Promise.resolve()
		const next = prev.then(() => this.deliver(userbotId, state, detail))
		this.queues.set(userbotId, next)
		void next.finally(() => {
			if (this.queues.get(userbotId) === next) this.queues.delete(userbotId)
		})
	}

	/** Waits until every event seen so far is stored (tests, shutdown). */
	async drain(): Promise<void> {
		await Promise.all([...this.queues.values()])
	}

	private wake(userbotId: number): void {
		for (const fn of [...(this.waiters.get(userbotId) ?? [])]) fn()
	}

	private async deliver(userbotId: number, state: string, detail?: Record<string, unknown>): Promise<void> {
		try {
			let companyId = this.companies.get(userbotId)
			if (companyId === undefined) {
				const [row] = await this.ctx.db
					.select({ companyId: userbot.companyId })
					.from(userbot)
					.where(eq(userbot.id, userbotId))
				if (!row) return
				companyId = row.companyId
				this.companies.set(userbotId, companyId)
			}
			this.ctx.publish({
				companyId,
				message: {
					type: 'chat_update',
					userbot_id: userbotId,
					payload: {
						userbot_id: userbotId,
						type: 'authorization_state',
						result: { authorization_state: state, ...publicDetail(state, detail) },
					},
				},
			})
			const phone = phoneFromDetail(detail)?.replace(/\D/g, '')
			await this.ctx.db
				.update(userbot)
				.set(phone ? { authorizationState: state, phoneNumber: phone } : { authorizationState: state })
				.where(eq(userbot.id, userbotId))
		} catch (err) {
			this.ctx.log.warn('could not record an authorization state', {
				userbotId,
				state,
				error: err instanceof Error ? err : String(err),
			})
		}
	}
}
