import { type Journal, KEEP_MS, type Kept } from './journal'
import type { UpdateType } from './update-of'
import { defaultSettings, settingsFrom, settingsJson, type TokenSettings } from './update-settings'

/** Who asks: the token's key, its one userbot and its account's user id (the token's first part). */
export interface Asker {
	keyId: number
	userbotId: number
	selfId: number
}

/** A token's settings and the first `update_id` it has not confirmed. */
export type TokenState = TokenSettings & { confirmed: number }

/** Rows read a page at a time while the token's settings leave some out. */
const PAGE = 200
const PAGES = 20
/** The most updates looked at for an `offset` of -N. */
const LATEST = 2000

/** A kept update's Bot API type for a token of account `selfId`. */
export const typeOf = (e: { type: UpdateType | null; member?: number | null }, selfId: number): UpdateType =>
	e.type ?? (e.member === selfId ? 'my_chat_member' : 'chat_member')
export const wanted = (e: Kept | WantedEntry, s: TokenSettings, selfId: number) =>
	(s.includeOwn || e.face !== true) && s.allowed.has(typeOf(e, selfId))
type WantedEntry = { type: UpdateType | null; member?: number; face?: boolean }

/**
 * Each token's getUpdates state, cached here and stored in the journal (`bot_api_token`), so an
 * offset confirmed and the settings given survive a restart.
 */
export function createTokenStates(journal: Journal) {
	const states = new Map<number, Promise<TokenState>>()
	const load = async (keyId: number): Promise<TokenState> => {
		const row = await journal.token(keyId)
		return row
			? { ...settingsFrom(row.settings), confirmed: row.confirmed }
			: { ...defaultSettings(), confirmed: 0 }
	}
	return {
		of(keyId: number): Promise<TokenState> {
			let s = states.get(keyId)
			if (!s) {
				s = load(keyId)
				states.set(keyId, s)
				s.catch(() => states.delete(keyId))
			}
			return s
		},
		save: (asker: Asker, s: TokenState) =>
			journal.saveToken(asker.keyId, asker.userbotId, {
				confirmed: s.confirmed,
				settings: settingsJson({ allowed: s.allowed, includeOwn: s.includeOwn }),
			}),
	}
}

const updateOf = (e: Kept, selfId: number) => ({
	update_id: e.updateId,
	[typeOf(e, selfId)]: JSON.parse(e.body),
})

/** The kept updates of the token from its confirmed offset on, at most `limit`. */
export async function take(journal: Journal, asker: Asker, s: TokenState, limit: number, now: number) {
	const out: Array<Record<string, unknown>> = []
	let from = s.confirmed
	let after: Kept | undefined
	for (let page = 0; page < PAGES && out.length < limit; page++) {
		const rows = await journal.read(asker.userbotId, from, now - KEEP_MS, PAGE)
		for (const e of rows) {
			if (out.length >= limit) break
			// The next page starts at the last one's `update_id`: its parts read already are skipped.
			if (after && e.updateId === after.updateId && e.part <= after.part) continue
			if (wanted(e, s, asker.selfId)) out.push(updateOf(e, asker.selfId))
		}
		after = rows.at(-1)
		if (rows.length < PAGE || !after) break
		from = after.updateId
	}
	return out
}

/** As Telegram: an offset of -N is the last N updates the token wants (those before them are confirmed). */
export async function latestFrom(journal: Journal, asker: Asker, s: TokenState, n: number, now: number) {
	const rows = (await journal.latest(asker.userbotId, now - KEEP_MS, LATEST)).filter((e) =>
		wanted(e, s, asker.selfId),
	)
	return rows[Math.min(rows.length, n) - 1]?.updateId
}
