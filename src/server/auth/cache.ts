/**
 * The per-app memory of the hot path: sessions by id hash, profiles by user id, and whether a
 * token family is still alive. Every revocation goes through `dropFamily` / `dropUser` right after
 * the database write, so nothing revoked lingers until it expires. Sizes are bounded: past the cap
 * a map is cleared and refilled from the database on demand.
 *
 * A read that started before a revocation must not put back what the revocation dropped (a
 * session row read just before its delete committed, say): every drop advances `epoch`, and a
 * put that carries the `stamp` taken before its database read is ignored when they differ.
 *
 * Every drop is also announced to the `onRevoked` listeners (the WebSocket gateway closes the
 * sockets opened with what was dropped), synchronously, after memory has forgotten it.
 */
import type { Profile, Revocation } from './types'

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
	/** Take it before reading what will be put; pass it to the put. */
	stamp(): number
	putSession(entry: SessionEntry, stamp?: number): void
	putProfile(profile: Profile, stamp?: number): void
	putFamily(family: string, alive: boolean, userId: number, stamp?: number): void
	dropSession(hash: string): void
	dropFamily(family: string): void
	/** Profile changed or everything of the user revoked: forget all of it. */
	dropUser(userId: number, revoked: boolean): void
	/**
	 * Forgets everything cached, without announcing anything (the bus: this gateway may have missed
	 * revocations while it was cut off; what it needs again is read from the database).
	 */
	clear(): void
	/** Hears every drop, after it; returns the unsubscribe. */
	onRevoked(listener: (revocation: Revocation) => void): () => void
}

const CAP = 100_000

/** `reportError` hears a listener that threw: a revocation itself never fails because of one. */
export function createAuthCache(reportError: (err: unknown) => void = () => {}): AuthCache {
	const listeners = new Set<(revocation: Revocation) => void>()
	const announce = (revocation: Revocation) => {
		for (const listener of listeners) {
			try {
				listener(revocation)
			} catch (err) {
				reportError(err)
			}
		}
	}
	const sessions = new Map<string, SessionEntry>()
	const profiles = new Map<number, Profile>()
	const families = new Map<string, { alive: boolean; userId: number }>()
	let epoch = 0
	/** False when the put is stale; otherwise makes room in `map`. */
	const admit = <K, V>(map: Map<K, V>, stamp: number | undefined) => {
		if (stamp !== undefined && stamp !== epoch) return false
		if (map.size >= CAP) map.clear()
		return true
	}
	return {
		sessions,
		profiles,
		families,
		stamp: () => epoch,
		putSession(entry, stamp) {
			if (admit(sessions, stamp)) sessions.set(entry.hash, entry)
		},
		putProfile(profile, stamp) {
			if (admit(profiles, stamp)) profiles.set(profile.id, profile)
		},
		putFamily(family, alive, userId, stamp) {
			if (admit(families, stamp)) families.set(family, { alive, userId })
		},
		dropSession(hash) {
			epoch++
			sessions.delete(hash)
			announce({ sessionHash: hash })
		},
		dropFamily(family) {
			epoch++
			const known = families.get(family)
			families.set(family, { alive: false, userId: known?.userId ?? 0 })
			for (const [hash, s] of sessions) if (s.family === family) sessions.delete(hash)
			announce({ family })
		},
		dropUser(userId, revoked) {
			epoch++
			profiles.delete(userId)
			if (!revoked) return announce({ userId, changed: true })
			for (const [hash, s] of sessions) if (s.userId === userId) sessions.delete(hash)
			for (const f of families.values()) if (f.userId === userId) f.alive = false
			announce({ userId, revoked: true })
		},
		clear() {
			epoch++
			sessions.clear()
			profiles.clear()
			families.clear()
		},
		onRevoked(listener) {
			listeners.add(listener)
			return () => listeners.delete(listener)
		},
	}
}
