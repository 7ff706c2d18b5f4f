import { and, eq, isNull } from 'drizzle-orm'
import { userbot } from '../../db/schema'
import type { AppContext } from '../context'
import { STATUS_UPDATE, USERBOT_STATUSES, type UserbotStatus } from '../flood/health'
import type { RuntimeEvent } from '../supervisor/types'

export interface StatusView {
	status: UserbotStatus
	/** `cooling_down`: when it ends, Unix seconds. */
	until?: number
}

const isStatus = (s: unknown): s is UserbotStatus =>
	typeof s === 'string' && (USERBOT_STATUSES as readonly string[]).includes(s)

/**
 * Each userbot's health as the process that runs it reports it (`updateUserbotStatus`, which the
 * update hub numbers and sends to subscribers as `userbot_status`): kept here for
 * `GET /api/userbots/{id}/`, stored on the row, and pushed to the company's sockets as a
 * `chat_update` of type `userbot_status`, in the order the changes happened.
 */
export class StatusTracker {
	private readonly statuses = new Map<number, StatusView>()
	private queue: Promise<void> = Promise.resolve()

	constructor(private readonly ctx: Pick<AppContext, 'db' | 'log' | 'publish' | 'userbots'>) {}

	current(userbotId: number): StatusView | undefined {
		return this.statuses.get(userbotId)
	}

	handle(event: RuntimeEvent): void {
		if (event.type !== 'update' || event.update._ !== STATUS_UPDATE) return
		const { status, until } = event.update as { status?: unknown; until?: unknown }
		if (!isStatus(status)) return
		const view: StatusView = typeof until === 'number' ? { status, until } : { status }
		this.statuses.set(event.userbotId, view)
		this.queue = this.queue.then(() => this.deliver(event.userbotId, view))
	}

	/** Waits until every change seen is stored and pushed (tests, shutdown). */
	drain(): Promise<void> {
		return this.queue
	}

	forget(userbotId: number): void {
		this.statuses.delete(userbotId)
	}

	private async deliver(userbotId: number, view: StatusView): Promise<void> {
		try {
			const record = await this.ctx.userbots.lookup(userbotId)
			if (!record) return
			await this.ctx.db
				.update(userbot)
				.set({ status: view.status, statusUntil: view.until ?? null })
				.where(and(eq(userbot.id, userbotId), isNull(userbot.deletedAt)))
			this.ctx.publish({
				companyId: record.companyId,
				message: {
					type: 'chat_update',
					userbot_id: userbotId,
					payload: { userbot_id: userbotId, type: 'userbot_status', result: view },
				},
			})
		} catch (err) {
			this.ctx.log.warn('could not record a userbot status', {
				userbotId,
				error: err instanceof Error ? err : String(err),
			})
		}
	}
}
