import { and, eq, isNull, sql } from 'drizzle-orm'
import {
	type AppContext,
	type RuntimeEvent,
	successEvent,
	type UserbotStatus,
	userbot,
} from 'userbot-gateway/plugin'

export interface StatusView {
	status: UserbotStatus
	/** `cooling_down`: when it ends, Unix seconds. */
	until?: number
}

/**
 * Each userbot's health as the process that runs it reports it (`userbot_status` runtime events):
 * kept here for `GET /api/userbots/{id}/`, stored on the row, pushed to the company's sockets as a
 * `chat_update` of type `userbot_status`, and handed to the hub's observers (the webhooks) as
 * `userbot.status`, in the order the changes happened. It is an event about the account, so it never
 * enters the numbered update stream: subscribers' `seq` values count TDLib updates only.
 */
export class StatusTracker {
	private readonly statuses = new Map<number, StatusView>()
	private queue: Promise<void> = Promise.resolve()

	constructor(private readonly ctx: Pick<AppContext, 'db' | 'log' | 'publish' | 'userbots' | 'updates'>) {}

	current(userbotId: number): StatusView | undefined {
		return this.statuses.get(userbotId)
	}

	handle(event: RuntimeEvent): void {
		if (event.type !== 'userbot_status') return
		const view: StatusView =
			event.until === undefined ? { status: event.status } : { status: event.status, until: event.until }
		this.statuses.set(event.userbotId, view)
		const initial = event.initial === true
		this.queue = this.queue.then(() => this.deliver(event.userbotId, view, initial))
	}

	/** Waits until every change seen is stored and pushed (tests, shutdown). */
	drain(): Promise<void> {
		return this.queue
	}

	forget(userbotId: number): void {
		this.statuses.delete(userbotId)
	}

	/**
	 * Stores the status; tells of it unless nothing changed. A change the runtime saw happen is told
	 * always (each gateway tells its own sockets). The first status a runtime knows of an account (its
	 * client started) is told only when the stored one differs: a userbot that starts as healthy as it
	 * was tells nothing, one stored `restarting` or `revoked` before a restart is set right.
	 */
	private async deliver(userbotId: number, view: StatusView, initial: boolean): Promise<void> {
		try {
			const record = await this.ctx.userbots.lookup(userbotId)
			if (!record) return
			const until = view.until ?? null
			// SQLite's `IS NOT`: a comparison that holds for NULLs too.
			const differs = sql`(${userbot.status} IS NOT ${view.status} OR ${userbot.statusUntil} IS NOT ${until})`
			const written = await this.ctx.db
				.update(userbot)
				.set({ status: view.status, statusUntil: until })
				.where(and(eq(userbot.id, userbotId), isNull(userbot.deletedAt), ...(initial ? [differs] : [])))
			if (initial && written.rowsAffected === 0) return
			this.tell(record.companyId, userbotId, view)
		} catch (err) {
			this.ctx.log.warn('could not record a userbot status', {
				userbotId,
				error: err instanceof Error ? err : String(err),
			})
		}
	}

	private tell(companyId: number, userbotId: number, view: StatusView): void {
		this.ctx.publish({
			companyId,
			userbotId,
			message: successEvent(userbotId, 'userbot_status', view),
		})
		this.ctx.updates.emit(userbotId, 'userbot.status', { ...view })
	}
}
