/**
 * The per-app memory of the hot path: sessions by id hash, profiles by user id, and whether a
 * token family is still alive. Every revocation goes through `dropFamily` / `dropUser` right after
 * the database write, so nothing revoked lingers until it expires. Sizes are bounded: past the cap
 * a map is cleared and refilled from the database on demand.
 */
import type { Profile } from './profiles'

export interface SessionEntry {
	hash: string
	userId: number
	csrfToken: string
	accessToken: string
	refreshToken: string
	/** Unix ms. */
	accessExpiresAt: number
	expiresAt: number
	family: string
}

export interface AuthCache {
	sessions: Map<string, SessionEntry>
	profiles: Map<number, Profile>
	families: Map<string, { alive: boolean; userId: number }>
	putSession(entry: SessionEntry): void
	putProfile(profile: Profile): void
	putFamily(family: string, alive: boolean, userId: number): void
	dropSession(hash: string): void
	dropFamily(family: string): void
	/** Profile changed or everything of the user revoked: forget all of it. */
	dropUser(userId: number, revoked: boolean): void
}

const CAP = 100_000

export function createAuthCache(): AuthCache {
	const sessions = new Map<string, SessionEntry>()
	const profiles = new Map<number, Profile>()
	const families = new Map<string, { alive: boolean; userId: number }>()
	const bounded = <K, V>(map: Map<K, V>) => {
		if (map.size >= CAP) map.clear()
	}
	return {
		sessions,
		profiles,
		families,
		putSession(entry) {
			bounded(sessions)
			sessions.set(entry.hash, entry)
		},
		putProfile(profile) {
			bounded(profiles)
			profiles.set(profile.id, profile)
		},
		putFamily(family, alive, userId) {
			bounded(families)
			families.set(family, { alive, userId })
		},
		dropSession(hash) {
			sessions.delete(hash)
		},
		dropFamily(family) {
			const known = families.get(family)
			families.set(family, { alive: false, userId: known?.userId ?? 0 })
			for (const [hash, s] of sessions) if (s.family === family) sessions.delete(hash)
		},
		dropUser(userId, revoked) {
			profiles.delete(userId)
			if (!revoked) return
			for (const [hash, s] of sessions) if (s.userId === userId) sessions.delete(hash)
			for (const f of families.values()) if (f.userId === userId) f.alive = false
		},
	}
}
