import { standingOf } from '../policy/principal'
import type { KeyGrant } from '../policy/scopes'
import type { Profile } from './profiles'
import type { Principal } from './types'

export interface PrincipalMaker {
	/** The principal of `profile` by one kind of credential. */
	of(profile: Profile, via: Principal['via']): Principal
	/** The key owner's principal, narrowed by the key's scopes. */
	ofKey(profile: Profile, key: KeyGrant): Principal
	/** The principal `was` acts as now that its profile reads `profile`. */
	again(profile: Profile, was: Principal): Principal
}

/**
 * One principal per profile and credential kind (and per key), made once: a socket asks for it per
 * command. A profile read again is a new object, so its principals are made again.
 */
export function createPrincipals(): PrincipalMaker {
	const principals = new WeakMap<Profile, Partial<Record<Principal['via'], Principal>>>()
	const of = (profile: Profile, via: Principal['via']): Principal => {
		let made = principals.get(profile)
		if (!made) {
			made = {}
			principals.set(profile, made)
		}
		made[via] ??= {
			userId: profile.id,
			email: profile.email,
			companyId: profile.companyId,
			isOwner: profile.isOwner,
			grants: profile.grants,
			standing: standingOf(profile),
			via,
		}
		return made[via]
	}

	const keyPrincipals = new WeakMap<Profile, Map<number, Principal>>()
	const ofKey = (profile: Profile, key: KeyGrant): Principal => {
		let made = keyPrincipals.get(profile)
		if (!made) {
			made = new Map()
			keyPrincipals.set(profile, made)
		}
		// A key presented as a Bot API token is a principal of its own: its grant says so (`botToken`).
		const slot = key.botToken ? -key.id : key.id
		let principal = made.get(slot)
		if (!principal) {
			principal = { ...of(profile, 'key'), key }
			made.set(slot, principal)
		}
		return principal
	}
	return { of, ofKey, again: (profile, was) => (was.key ? ofKey(profile, was.key) : of(profile, was.via)) }
}
