import type { Ctx } from '../../context'
import type { statusLine } from '../../dom'
import type { Userbot } from '../../rest-types'
import type { cardActions } from './card-actions'
import type { Detail, LoginMemory } from './login-steps'
import { loadPhoto, loadProfile, type Profile } from './profile'

/**
 * What the userbots page's sections share: the userbots read last, which one logs in below, which card
 * asks about a deletion or shows its proxy, what each log-in remembers, and how to draw or read again.
 */
export const READY = 'authorizationStateReady'

export interface UserbotsState {
	ctx: Ctx
	bots: Userbot[]
	/** The userbot whose guided log-in is below the list. */
	selected: number | null
	/** The card that asks whether to delete. */
	confirming: number | null
	/** The userbot whose proxy panel is open. */
	proxyOf: number | null
	/** Counts the reads of the list: an answer to an older one is dropped. */
	generation: number
	memory: Map<number, LoginMemory>
	details: Map<number, Detail>
	profiles: Map<number, Promise<{ profile: Profile | null; photo: string | null }>>
	list: HTMLUListElement
	panel: HTMLElement
	status: ReturnType<typeof statusLine>
	stepStatus: ReturnType<typeof statusLine>
	more: ReturnType<typeof cardActions>
	/** Draws the cards and the panel again from what is known. */
	draw(): void
	/** Reads the userbots again, then draws. */
	refresh(): Promise<void>
}

export function memoryOf(s: UserbotsState, id: number): LoginMemory {
	const m = s.memory.get(id) ?? { phone: '', choice: null, qrLink: null }
	s.memory.set(id, m)
	return m
}

/** The Telegram profile and photo, asked once per userbot and page. */
export function cachedProfile(s: UserbotsState, id: number) {
	let p = s.profiles.get(id)
	if (!p) {
		p = loadProfile(s.ctx, id).then(async (profile) => ({
			profile,
			photo: profile?.photoFileId ? await loadPhoto(id, profile.photoFileId).catch(() => null) : null,
		}))
		s.profiles.set(id, p)
	}
	return p
}
