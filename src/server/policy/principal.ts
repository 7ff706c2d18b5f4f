import type { Permission } from './permissions'
import type { KeyGrant } from './scopes'

/**
 * Whether the principal may act at all, as its profile stands: `works`, or why not. A member whose
 * work status does not allow work (On Leave, Dismissed) is `status_not_allowed` (owners work whatever
 * their status says); anyone of a company switched off is `company_inactive`.
 */
export type Standing = 'works' | 'status_not_allowed' | 'company_inactive'

/** What `standingOf` reads of a profile. */
export interface StandingFacts {
	isOwner: boolean
	allowsWork: boolean
	/** The company's `active` flag; true without a company. */
	companyActive: boolean
}

/** The access rule of docs/rest.md#rest-login-against-a-main-server-family-b, for every path. */
export function standingOf(facts: StandingFacts): Standing {
	if (!facts.companyActive) return 'company_inactive'
	return facts.isOwner || facts.allowsWork ? 'works' : 'status_not_allowed'
}

/**
 * Who is calling, as resolved from a session cookie, a bearer access token or an API key: the user,
 * the company, the role (owner or member), the owner-only permissions granted to a member, its
 * standing, and the key's scopes when it came with one. `can` (./can.ts) decides by these, never by
 * the kind of credential.
 */
export interface Principal {
	userId: number
	email: string
	companyId: number | null
	isOwner: boolean
	/** Owner-only permissions the owner granted this member (an owner holds them all anyway). */
	grants: ReadonlySet<Permission>
	/** Whether the principal may work now (./principal.ts `standingOf`). */
	standing: Standing
	via: 'session' | 'bearer' | 'key'
	/** Set when the caller came with an API key: the owner's principal, narrowed by its scopes. */
	key?: KeyGrant
}

/**
 * The principal's company, where the policy admitted it to one of the company's resources (a
 * principal without a company reaches none, ./can.ts): never null there.
 */
export function companyOf(principal: Principal): number {
	if (principal.companyId === null) throw new Error('the policy admitted a principal without a company')
	return principal.companyId
}
