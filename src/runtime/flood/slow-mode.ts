import type { FloodGovernor } from './governor'

/** TDLib's update of a supergroup's full info, which carries its slow mode. */
export const FULL_INFO = 'updateSupergroupFullInfo'
/** TDLib's chat id of supergroup `id` is `-SUPERGROUP_CHAT - id`. */
const SUPERGROUP_CHAT = 1_000_000_000_000

/**
 * What the governor knows of the supergroups' slow modes, per account: from `supergroupFullInfo`
 * (an answer to `getSupergroupFullInfo`, whoever asked) and `updateSupergroupFullInfo` (TDLib
 * tells it when the full info is loaded or changes). Before an account's first message to a
 * supergroup it knows nothing of, it asks TDLib once (`fetch`), so a chat in slow mode is paced from
 * the first burst on; TDLib then keeps the full info current and tells each change.
 */
export class SlowModes {
	/** Per `account:chat`, the first look at its full info (done or under way). */
	private readonly looked = new Map<string, Promise<void>>()

	constructor(
		private readonly governor: FloodGovernor,
		private readonly fetch: (userbotId: number, supergroupId: number, timeoutMs: number) => Promise<unknown>,
	) {}

	/** What Telegram said of a supergroup's slow mode. */
	learn(userbotId: number, supergroupId: unknown, delay: unknown): void {
		if (typeof supergroupId !== 'number' || typeof delay !== 'number' || !Number.isFinite(delay)) return
		const chatId = -SUPERGROUP_CHAT - supergroupId
		this.looked.set(`${userbotId}:${chatId}`, Promise.resolve())
		this.governor.slowMode(userbotId, chatId, Math.max(0, delay))
	}

	onUpdate(userbotId: number, update: { _: string } & Record<string, unknown>): void {
		const u = update as { supergroup_id?: unknown; supergroup_full_info?: { slow_mode_delay?: unknown } }
		this.learn(userbotId, u.supergroup_id, u.supergroup_full_info?.slow_mode_delay)
	}

	onAnswer(userbotId: number, request: { _: string }, answer: unknown): void {
		if (request._ !== 'getSupergroupFullInfo') return
		const supergroupId = (request as { supergroup_id?: unknown }).supergroup_id
		this.learn(userbotId, supergroupId, (answer as { slow_mode_delay?: unknown } | null)?.slow_mode_delay)
	}

	/**
	 * Resolves once the chat's slow mode is known (at once for a chat that is no supergroup, or known
	 * already). A look that fails (not a member, no time) counts as none: Telegram's own answer then
	 * tells, and a later update.
	 */
	known(userbotId: number, chatId: number, timeoutMs: number): Promise<void> {
		if (chatId > -SUPERGROUP_CHAT) return Promise.resolve()
		const key = `${userbotId}:${chatId}`
		let look = this.looked.get(key)
		if (!look) {
			const supergroupId = -SUPERGROUP_CHAT - chatId
			look = this.fetch(userbotId, supergroupId, timeoutMs).then(
				(info) =>
					this.learn(userbotId, supergroupId, (info as { slow_mode_delay?: unknown })?.slow_mode_delay),
				() => undefined,
			)
			this.looked.set(key, look)
		}
		return look
	}

	forget(userbotId: number): void {
		for (const key of [...this.looked.keys()]) if (key.startsWith(`${userbotId}:`)) this.looked.delete(key)
	}
}
