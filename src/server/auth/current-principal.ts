import { standingOf } from '../policy/principal'
import type { ApiKeys } from './api-keys'
import type { AuthCache } from './cache'
import type { Families } from './families'
import type { PrincipalMaker } from './principals'
import type { Profile, Profiles } from './profiles'
import type { Sessions } from './sessions'
import type { Credential, Principal } from './types'

/** The user may still act as the principal the credential was issued for, and may work. */
const stillHolds = (profile: Profile, principal: Principal) =>
	profile.active &&
	standingOf(profile) === 'works' &&
	profile.companyId === principal.companyId &&
	profile.isOwner === principal.isOwner

/**
 * Who a WebSocket's credential names now, before each command and push: from memory when the
 * cache holds its family, profile and session, else from the database; null once it may not.
 */
export function createCurrentPrincipal(deps: {
	sessions: Sessions
	profiles: Profiles
	families: Families
	cache: AuthCache
	keys: ApiKeys
	principals: PrincipalMaker
}) {
	const { sessions, profiles, families, cache, keys, principals } = deps

	const fromDatabase = async (credential: Credential): Promise<Principal | null> => {
		const { principal, family, sessionId } = credential
		const alive = principal.key
			? await keys.isAlive(principal.key.id)
			: await families.isAlive(family, principal.userId)
		if (!alive) return null
		if (sessionId !== null) {
			// Refreshes the session's access token if it is due: a session socket lives as its session.
			const entry = await sessions.resolve(sessionId)
			if (!entry || entry.family !== family) return null
		}
		const profile = await profiles.get(principal.userId)
		if (profile === null || !stillHolds(profile, principal) || credential.expiresAt <= Date.now()) return null
		return principals.again(profile, principal)
	}

	return (credential: Credential): Principal | null | Promise<Principal | null> => {
		const now = Date.now()
		if (credential.expiresAt <= now) return null
		const family = cache.families.get(credential.family)
		if (family && !family.alive) return null
		const profile = profiles.peek(credential.principal.userId)
		if (profile && !stillHolds(profile, credential.principal)) return null
		const hash = credential.sessionHash
		const session = hash === null ? undefined : cache.sessions.get(hash)
		if (session && (session.expiresAt <= now || session.family !== credential.family)) return null
		if (family && profile && (hash === null || session))
			return principals.again(profile, credential.principal)
		return fromDatabase(credential)
	}
}
