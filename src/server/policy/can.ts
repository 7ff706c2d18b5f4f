import type { Finder, PolicyEntry, ResourceKind } from './entry'
import type { Principal } from './principal'

/**
 * The one decision on access (docs/policy.md): may this principal do what this entry describes, to
 * the resources the request names? Every face asks it, and turns its refusal into its own words:
 * REST (src/server/auth/route-guard.ts) into 401, 403 `{detail, code}` and 404, the WebSocket gateway into
 * `userbot not found` and `permission denied`. It is pure: the faces find the resources (a userbot's
 * company, an endpoint's userbots) and hand them over as `Found`.
 */

/**
 * Why not. `unauthenticated`: no principal (no credential, or one that does not hold). The principal's
 * standing: `status_not_allowed`, `company_inactive`. `key_scope`: an API key's scopes do not cover it.
 * `permission_denied`: the role (a member on the owner's resources, or without the grant).
 * `not_found`: the resource is not there for this principal: another company's, or out of a key's
 * reach, answered exactly as one that does not exist.
 */
export type Refusal =
	| 'unauthenticated'
	| 'status_not_allowed'
	| 'company_inactive'
	| 'key_scope'
	| 'permission_denied'
	| 'not_found'

export type Decision =
	| { readonly ok: true }
	| { readonly ok: false; readonly refusal: Refusal; readonly finder?: Finder }

/** What a finder found in the request: the resource's company and the userbots it names. */
export interface Found {
	readonly finder: Finder
	/** The company it belongs to; null when there is no such thing. */
	readonly companyId: number | null
	/** The userbots it names: a list, `all` of the company's, or none. */
	readonly userbots?: readonly number[] | 'all'
}

/** Who reaches a kind at all: the owner always; members; API keys (`webhooks`: with that scope). */
export const REACH: Readonly<Record<ResourceKind, { members: boolean; keys: boolean | 'webhooks' }>> = {
	public: { members: true, keys: true },
	self: { members: true, keys: false },
	company: { members: true, keys: true },
	userbot: { members: true, keys: true },
	webhook: { members: false, keys: 'webhooks' },
	member: { members: false, keys: false },
	invite: { members: false, keys: false },
	key: { members: false, keys: false },
	audit: { members: false, keys: false },
	operator: { members: false, keys: false },
}

const ALLOWED: Decision = { ok: true }
const refused = (refusal: Refusal, finder?: Finder): Decision =>
	finder ? { ok: false, refusal, finder } : { ok: false, refusal }

/** The userbots a principal reaches: null for every userbot of its company, else the key's list. */
export const reachedUserbots = (principal: Principal): readonly number[] | null =>
	principal.key?.scopes.userbotIds ?? null

export function reachesUserbot(principal: Principal, userbotId: number): boolean {
	const ids = reachedUserbots(principal)
	return ids === null || ids.includes(userbotId)
}

/** Every userbot named is reachable: `all` (or null, as an endpoint stores it) only by a principal that reaches all. */
export function reachesEvery(principal: Principal, userbots: readonly number[] | 'all' | null): boolean {
	const ids = reachedUserbots(principal)
	if (ids === null) return true
	if (userbots === null || userbots === 'all') return false
	return userbots.every((id) => ids.includes(id))
}

/** A principal that came with a Bot API token: a key made with `bot_api`, kept to its one userbot. */
export const isBotToken = (principal: Principal): boolean =>
	principal.key?.botToken === true && principal.key.scopes.userbotIds?.length === 1

/**
 * In this order: who may act at all (the credential, its standing), who reaches the kind (members
 * never reach the owner's resources; keys only what their scopes name), the resources the path or
 * frame names (another company's, or a userbot out of a key's reach, is not found), what a key may
 * do there (`read_only`, `td_invoke`, its groups and commands), the member's grant for a `manage` action, and
 * last the userbots a body names (REST reads a body only once the rest let the caller in). So a
 * refusal never tells more than the step that made it: a member learns nothing of the owner's
 * resources, a stranger that a resource exists.
 */
export function can(principal: Principal | null, entry: PolicyEntry, found: readonly Found[] = []): Decision {
	if (entry.resource === 'public') return ALLOWED
	if (!principal || entry.resource === 'operator') return refused('unauthenticated')
	// The Bot API face: only the credential its path carries, a token kept to one userbot, counts.
	if (entry.find?.some((f) => f.from === 'token') && !isBotToken(principal)) return refused('unauthenticated')
	const { standing, key } = principal
	// An entry for API keys alone (the MCP face): a session or an access token is no credential there.
	if (entry.credential === 'key' && !key) return refused('unauthenticated')
	if (standing === 'status_not_allowed') return refused(standing)
	// Who they are and that their company is off, they may read: a main server's own me/ says so.
	if (standing === 'company_inactive' && !(entry.resource === 'self' && entry.action === 'read'))
		return refused(standing)
	const reach = REACH[entry.resource]
	if (key) {
		if (reach.keys === false || (reach.keys === 'webhooks' && !key.scopes.webhooks))
			return refused('key_scope')
	} else if (!principal.isOwner && !reach.members) return refused('permission_denied')
	const finders = entry.find ?? []
	const inRequest = resourcesRefusal(
		principal,
		entry,
		found,
		finders.filter((f) => f.from !== 'body'),
	)
	if (inRequest) return inRequest
	if (key) {
		const { readOnly, groups, commands } = key.scopes
		if (readOnly && entry.action !== 'read') return refused('key_scope')
		if (entry.tdInvoke && !key.scopes.tdInvoke) return refused('key_scope')
		const scoped = groups !== null || commands !== null
		if (
			scoped &&
			entry.group !== undefined &&
			!groups?.includes(entry.group) &&
			!(entry.command !== undefined && commands?.includes(entry.command))
		)
			return refused('key_scope')
	}
	if (entry.action === 'manage' && !principal.isOwner) {
		if (entry.permission === undefined || !principal.grants.has(entry.permission))
			return refused('permission_denied')
	}
	// Last, the userbots a body names: REST reads them only once the rest has let the caller in.
	return (
		resourcesRefusal(
			principal,
			entry,
			found,
			finders.filter((f) => f.from === 'body'),
		) ?? ALLOWED
	)
}

/**
 * Whether the principal may run a command of this entry on a userbot it reaches, before any userbot
 * is named: what the MCP face lists as the key's tools (a `read_only` key only reads, a key of some
 * groups only theirs). The userbot the call then names is decided again, by `can`, when it runs.
 */
export function mayRun(principal: Principal, entry: PolicyEntry): boolean {
	const reached = reachedUserbots(principal)
	const some = reached === null ? [] : reached.slice(0, 1)
	if (reached !== null && some.length === 0) return false
	const found = (entry.find ?? [])
		.filter((f) => f.from === 'frame')
		.map((finder): Found => ({ finder, companyId: principal.companyId, userbots: some }))
	return can(principal, entry, found).ok
}

/** The first of `finders` whose resource the principal does not reach, as a refusal. */
function resourcesRefusal(
	principal: Principal,
	entry: PolicyEntry,
	found: readonly Found[],
	finders: readonly Finder[],
): Decision | null {
	for (const finder of finders) {
		const refusal =
			finder.from === 'company'
				? collectionRefusal(principal, entry)
				: foundRefusal(
						principal,
						finder,
						found.find((f) => f.finder === finder),
					)
		if (refusal) return refused(refusal, finder)
	}
	return null
}

/**
 * The company's collection: read, it shows what the caller reaches; a new userbot is reachable by
 * every principal of the company, so a key kept to some userbots makes none.
 */
function collectionRefusal(principal: Principal, entry: PolicyEntry): Refusal | null {
	if (principal.companyId === null) return 'not_found'
	if (entry.resource === 'userbot' && entry.action !== 'read' && reachedUserbots(principal) !== null)
		return 'key_scope'
	return null
}

function foundRefusal(principal: Principal, finder: Finder, found: Found | undefined): Refusal | null {
	// A body field left out names nothing (the operation then takes what the caller reaches).
	if (!found) return finder.from === 'body' ? null : 'not_found'
	if (found.companyId === null || found.companyId !== principal.companyId) return 'not_found'
	if (found.userbots === undefined || reachesEvery(principal, found.userbots)) return null
	// Asking for all of them in a body is asking for more than the key holds; an existing thing
	// that names all of them is, for the key, not there.
	return found.userbots === 'all' && finder.from === 'body' ? 'key_scope' : 'not_found'
}
