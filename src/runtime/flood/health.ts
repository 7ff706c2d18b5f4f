import type { Clock } from './clock'

/**
 * Account health, beside the authorization state (docs/flood-and-health.md):
 * `active`; `cooling_down` until a flood wait Telegram imposed ends; `limited` (PEER_FLOOD: spam
 * restrictions); `frozen`; `banned` (USER_DEACTIVATED[_BAN]: stopped, never restarted); `revoked`
 * (the session was ended from elsewhere); `restarting` (its TDLib client is being started again);
 * `stopped`.
 */
export const USERBOT_STATUSES = [
	'active',
	'cooling_down',
	'limited',
	'frozen',
	'banned',
	'revoked',
	'restarting',
	'stopped',
] as const
export type UserbotStatus = (typeof USERBOT_STATUSES)[number]

export const isUserbotStatus = (s: unknown): s is UserbotStatus =>
	typeof s === 'string' && (USERBOT_STATUSES as readonly string[]).includes(s)

/**
 * A status change as the board tells it. It is an event about the account, not a TDLib update: it
 * travels beside the numbered update stream, never in it (docs/flood-and-health.md).
 */
export interface StatusChange {
	status: UserbotStatus
	/** `cooling_down`: when it ends, Unix seconds. */
	until?: number
	/**
	 * The first status this process knows of the account (its client was started): a change only if
	 * it differs from the stored one, which this process does not know.
	 */
	initial?: boolean
}

/** Statuses only a new log-in (or an explicit start) leaves. */
const STICKY = new Set<UserbotStatus>(['banned', 'revoked'])

/**
 * Each userbot's health as the process that runs it sees it. `set` tells `emit` of every change, once
 * (the first status it learns of an account is marked `initial`); a cooling down ends by itself on
 * the clock.
 */
export class HealthBoard {
	private readonly statuses = new Map<
		number,
		{ status: UserbotStatus; until?: number; cancel?: () => void }
	>()

	constructor(
		private readonly clock: Clock,
		private readonly emit: (userbotId: number, change: StatusChange) => void,
	) {}

	status(userbotId: number): UserbotStatus | undefined {
		return this.statuses.get(userbotId)?.status
	}

	/** `force`: a new log-in or start, which leaves even a sticky status. */
	set(userbotId: number, status: UserbotStatus, opts: { untilMs?: number; force?: boolean } = {}): void {
		const now = this.statuses.get(userbotId)
		if (now && STICKY.has(now.status) && !opts.force && status !== 'banned' && status !== 'stopped') return
		if (now?.status === 'banned' && !opts.force) return
		// Nothing changed: nothing is told.
		if (now && now.status === status && now.until === opts.untilMs) return
		now?.cancel?.()
		const entry: { status: UserbotStatus; until?: number; cancel?: () => void } = {
			status,
			until: opts.untilMs,
		}
		if (status === 'cooling_down' && opts.untilMs !== undefined) {
			entry.cancel = this.clock.after(opts.untilMs - this.clock.now(), () => {
				if (this.statuses.get(userbotId) === entry) this.set(userbotId, 'active')
			})
		}
		this.statuses.set(userbotId, entry)
		const change: StatusChange = { status }
		if (opts.untilMs !== undefined)
			change.until = Math.ceil(Date.now() / 1000 + (opts.untilMs - this.clock.now()) / 1000)
		if (!now) change.initial = true
		this.emit(userbotId, change)
	}

	forget(userbotId: number): void {
		this.statuses.get(userbotId)?.cancel?.()
		this.statuses.delete(userbotId)
	}
}
