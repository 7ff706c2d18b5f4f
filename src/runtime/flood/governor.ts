import { type Clock, sleepOn } from './clock'
import { type FloodClass, type FloodLimits, keysFor } from './limits'
import { type BucketRef, FloodMeter } from './meter'

/**
 * The flood governor: per account, ahead of Telegram. Each request of a flood class takes a token
 * from its buckets (the class's, and for a message the chat's and the group's); one over budget is
 * given the next free moment and waits for it, so an account's requests of a class go out in the
 * order they came, and nothing of another account or another class waits behind them. A wait past
 * the bound (`FLOOD_MAX_WAIT`, or the command's own time left, whichever is shorter) is refused at
 * once with `retry_after`, without taking anything: the request is never sent.
 *
 * When Telegram still says wait (a 429 `retry after N`, a message that failed with `retry_after`),
 * `pause` holds that class of that account for N seconds: queued requests wait if N fits their
 * bound, else they are refused with what is left of it.
 */
export interface GovernorOptions {
	limits: FloodLimits
	maxWaitMs: number
	/** How long after its log-in an account gets the warm-up limits (every interval doubled). */
	warmupMs: number
	clock: Clock
	/** Stretches every interval (FLOOD_MARGIN by default; tests of exact arithmetic say 1). */
	margin?: number
}

/**
 * The governor spaces requests a little wider than the limit: a request reaches Telegram a moment
 * after it leaves here, and not always the same moment later, so two that left one interval apart
 * may arrive a little closer. 5% of the interval covers that (the benchmark measures it).
 */
export const FLOOD_MARGIN = 1.05

export class FloodRefused extends Error {
	override name = 'FloodRefused'
	constructor(readonly retryAfter: number) {
		super(`Too Many Requests: retry after ${retryAfter}`)
	}
}

interface Account {
	/** The schedule: each request's moment, reserved when it comes (what the bound is checked on). */
	meter: FloodMeter
	/**
	 * The releases as they really happen: a request whose timer fired late pushes the next one of its
	 * buckets back by as much, so that no two ever leave closer than the limit allows.
	 */
	released: FloodMeter
	/**
	 * Per class (and per chat for messages), the last request's release: they leave in the order they
	 * came; another chat's messages are not held up behind them.
	 */
	chain: Map<string, Promise<void>>
	/** Built under the warm-up limits. */
	warm: boolean
	pausedUntil: Map<FloodClass, number>
}

export class FloodGovernor {
	private readonly accounts = new Map<number, Account>()
	private readonly loggedInAt = new Map<number, number>()
	/** Per account, the chats Telegram said are in slow mode, and their delay in seconds. */
	private readonly slowModes = new Map<number, Map<number, number>>()

	constructor(private readonly opts: GovernorOptions) {}

	private isNew(userbotId: number): boolean {
		const at = this.loggedInAt.get(userbotId)
		return at !== undefined && this.opts.clock.now() - at < this.opts.warmupMs
	}

	private account(userbotId: number): Account {
		const warm = this.isNew(userbotId)
		let a = this.accounts.get(userbotId)
		// The warm-up is over (or just began): the buckets start again under the other limits.
		if (!a || a.warm !== warm) {
			const margin = this.opts.margin ?? FLOOD_MARGIN
			// A chat's slow mode is Telegram's own figure: the margin, never the warm-up's doubling.
			const factor = (ref: BucketRef) => (warm && ref.key !== 'slow_mode' ? 2 * margin : margin)
			a = {
				meter: new FloodMeter(this.opts.limits, factor),
				released: new FloodMeter(this.opts.limits, factor),
				chain: a?.chain ?? new Map(),
				warm,
				pausedUntil: a?.pausedUntil ?? new Map(),
			}
			this.accounts.set(userbotId, a)
		}
		return a
	}

	/** The account just logged in (not restored from its database): warm-up limits for a while. */
	loggedIn(userbotId: number): void {
		this.loggedInAt.set(userbotId, this.opts.clock.now())
	}

	/**
	 * Resolves when the request may go; rejects with `FloodRefused` (and takes nothing) when that is
	 * further off than the bound. Checked and taken in one synchronous step.
	 */
	admit(userbotId: number, cls: FloodClass, chatId: number | undefined, timeLeftMs: number): Promise<void> {
		const a = this.account(userbotId)
		const refs: BucketRef[] = keysFor(cls, chatId)
		const slow =
			chatId === undefined || cls !== 'send' ? undefined : this.slowModes.get(userbotId)?.get(chatId)
		if (slow) refs.push({ key: 'slow_mode', scope: String(chatId), rate: { count: 1, seconds: slow } })
		const now = this.opts.clock.now()
		const at = a.meter.peek(refs, now, a.pausedUntil.get(cls) ?? 0)
		const wait = at - now
		if (wait > Math.min(this.opts.maxWaitMs, timeLeftMs))
			return Promise.reject(new FloodRefused(Math.max(1, Math.ceil(wait / 1000))))
		a.meter.take(refs, at)
		const lane = chatId === undefined ? cls : `${cls}:${chatId}`
		const previous = a.chain.get(lane) ?? Promise.resolve()
		const release = previous.then(async () => {
			await this.until(at)
			for (;;) {
				const now = this.opts.clock.now()
				const free = a.released.peek(refs, now)
				if (free <= now) return a.released.take(refs, now)
				await this.until(free)
			}
		})
		a.chain.set(lane, release)
		void release.then(() => {
			if (a.chain.get(lane) === release) a.chain.delete(lane)
		})
		return release
	}

	/** Resolves at `at` on the clock, never before it (a timer may fire a fraction of a millisecond early). */
	private async until(at: number): Promise<void> {
		for (let left = at - this.opts.clock.now(); left > 0; left = at - this.opts.clock.now())
			await sleepOn(this.opts.clock, Math.max(1, left))
	}

	/**
	 * Telegram told the chat's slow mode (`supergroupFullInfo.slow_mode_delay`): the account's messages
	 * to it go one per `seconds` from now on; 0 ends it.
	 */
	slowMode(userbotId: number, chatId: number, seconds: number): void {
		let chats = this.slowModes.get(userbotId)
		if (seconds > 0) {
			if (!chats) {
				chats = new Map()
				this.slowModes.set(userbotId, chats)
			}
			chats.set(chatId, seconds)
		} else chats?.delete(chatId)
	}

	/** Telegram said wait `seconds`: the class of the account is held until then. Returns the end. */
	pause(userbotId: number, cls: FloodClass, seconds: number): number {
		const a = this.account(userbotId)
		const until = this.opts.clock.now() + seconds * 1000
		a.pausedUntil.set(cls, Math.max(a.pausedUntil.get(cls) ?? 0, until))
		return until
	}

	/** The latest pause of the account still running, if any. */
	pausedUntil(userbotId: number): number | undefined {
		const now = this.opts.clock.now()
		let until: number | undefined
		for (const t of this.accounts.get(userbotId)?.pausedUntil.values() ?? [])
			if (t > now && (until === undefined || t > until)) until = t
		return until
	}

	forget(userbotId: number): void {
		this.accounts.delete(userbotId)
		this.loggedInAt.delete(userbotId)
		this.slowModes.delete(userbotId)
	}
}

/** `N` of TDLib's `Too Many Requests: retry after N` (and of Telegram's `FLOOD_WAIT_N`). */
export function retryAfterOf(message: string): number | undefined {
	const m = /retry after (\d+)|FLOOD_WAIT_(\d+)/.exec(message)
	return m ? Number(m[1] ?? m[2]) : undefined
}
