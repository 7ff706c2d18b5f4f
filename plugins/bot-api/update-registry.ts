import type { AppContext } from 'userbot-gateway/plugin'
import type { Journal } from './journal'
import { defaultSettings, settingsFrom, settingsJson, type TokenSettings } from './update-settings'

/** How often the key webhooks and tokens are read again, and (every PRUNE_EVERY) the journal pruned. */
const REFRESH_MS = 5000
const PRUNE_EVERY = 12

export type HookSettings = TokenSettings & { selfId: number }

/**
 * Who the updates are for (docs/bot-api.md#updates): the Bot API tokens that made a request here
 * and the userbots they name (only those userbots' updates are kept), each token's account user id, and the key webhooks with
 * their settings, read again every REFRESH_MS (a change made on another gateway too).
 */
export function createRegistry(ctx: AppContext, journal: Journal) {
	/** The key webhooks of each userbot, with their settings (from the webhooks plugin). */
	let hooks = new Map<number, Map<number, HookSettings>>()
	/** Each token's account user id (by key), as the token names it. */
	const selves = new Map<number, number>()
	/** Each token's userbot, by key, and those userbots. */
	let tokens = new Map<number, number>()
	let kept = new Set<number>()
	/** Tokens seen at a request and not read from the database yet (a key made a moment ago). */
	const introduced = new Map<number, number>()

	async function refresh() {
		const [list, rows] = await Promise.all([ctx.keyWebhooks()?.list() ?? [], journal.tokens()])
		const found = new Map<number, number>()
		for (const r of rows) {
			found.set(r.keyId, r.userbotId)
			// Kept with the token's row: a key webhook is served after a restart before any request.
			if (r.selfId !== null && !selves.has(r.keyId)) selves.set(r.keyId, r.selfId)
		}
		for (const [keyId, userbotId] of introduced)
			if (found.get(keyId) === userbotId) introduced.delete(keyId)
			else found.set(keyId, userbotId)
		tokens = found
		kept = new Set(found.values())
		const next = new Map<number, Map<number, HookSettings>>()
		for (const h of list) {
			const selfId = selves.get(h.keyId)
			if (selfId === undefined) continue
			const of = next.get(h.userbotId) ?? new Map()
			of.set(h.keyId, { ...settingsFrom(h.settings), selfId })
			next.set(h.userbotId, of)
		}
		hooks = next
	}

	let ticks = 0
	const timer = setInterval(() => {
		const prune = ++ticks % PRUNE_EVERY === 0 ? journal.prune(Date.now(), [...kept]) : undefined
		Promise.all([refresh(), prune]).catch((err: unknown) =>
			ctx.log.warn('bot api: reading the tokens failed', {
				error: err instanceof Error ? err.message : String(err),
			}),
		)
	}, REFRESH_MS)
	ctx.onClose(() => clearInterval(timer))

	return {
		refresh,
		/** Whether the userbot's updates are kept (it has a Bot API token). */
		keeps: (userbotId: number) => kept.has(userbotId),
		hooksOf: (userbotId: number) => hooks.get(userbotId),
		selfOf: (keyId: number) => selves.get(keyId) ?? 0,
		/** A token at a request: its key, its userbot and its account's user id (the token's first part). */
		introduce(keyId: number, userbotId: number, selfId: number) {
			const selfKnown = selves.get(keyId) === selfId
			selves.set(keyId, selfId)
			const known = tokens.get(keyId) === userbotId
			if (known && selfKnown) return
			if (!known) {
				introduced.set(keyId, userbotId)
				tokens.set(keyId, userbotId)
				kept.add(userbotId)
			}
			journal.knowToken(keyId, userbotId, selfId, settingsJson(defaultSettings())).catch((err: unknown) =>
				ctx.log.warn('bot api: storing a token failed', {
					error: err instanceof Error ? err.message : String(err),
				}),
			)
		},
	}
}
