/**
 * What an API key may reach: its owner's principal narrowed by these scopes (docs/operator.md).
 * Each check here is the one place its rule lives: the gateway asks `keyAllowsCommand` and
 * `keyReachesUserbot` before a command runs, the authenticator asks `keyRouteRefusal` before any
 * REST route sees the request.
 */
export interface KeyScopes {
	/** The userbots it may use; null: every userbot of the company. */
	userbotIds: readonly number[] | null
	/** Command groups (plugin ids) it may send; null with `commands` null: every group. */
	groups: readonly string[] | null
	/** Single commands it may send, beside those of `groups`. */
	commands: readonly string[] | null
	/** Only `get_*` commands and GET routes. */
	readOnly: boolean
	/** May manage webhooks (`/api/webhooks/`). */
	webhooks: boolean
}

/** The key a principal acts through, with its scopes. */
export interface KeyGrant {
	id: number
	scopes: KeyScopes
}

/** A command that only reads: its wire name says so (`get_chat_members`, `get_password_state`). */
export const isReadCommand = (name: string): boolean => name.startsWith('get_')

export function keyReachesUserbot(key: KeyGrant, userbotId: number): boolean {
	const ids = key.scopes.userbotIds
	return ids === null || ids.includes(userbotId)
}

export function keyAllowsCommand(key: KeyGrant, groupId: string, name: string): boolean {
	const { groups, commands, readOnly } = key.scopes
	if (readOnly && !isReadCommand(name)) return false
	if (groups === null && commands === null) return true
	return (groups?.includes(groupId) ?? false) || (commands?.includes(name) ?? false)
}

/** The lifecycle routes belong to the `userbots` plugin's group: creating, logging in, uploading. */
const LIFECYCLE_GROUP = 'userbots'
const USERBOTS = /^\/api\/userbots\/(?:(\d{1,15})\/)?/
const WEBHOOKS = '/api/webhooks/'
const SAFE = new Set(['GET', 'HEAD'])

/**
 * Why the key may not make this REST request (`forbidden`, `not_found` for a userbot it does not
 * reach, as another company's is), or null. Keys reach the userbot routes and, with `webhooks`, the
 * webhook routes; nothing of accounts, members, keys or the audit log.
 */
export function keyRouteRefusal(
	key: KeyGrant,
	method: string,
	path: string,
): 'forbidden' | 'not_found' | null {
	const { scopes } = key
	const reading = SAFE.has(method)
	if (scopes.readOnly && !reading) return 'forbidden'
	if (path.startsWith(WEBHOOKS) || path === WEBHOOKS.slice(0, -1)) return scopes.webhooks ? null : 'forbidden'
	const userbots = USERBOTS.exec(path)
	if (!userbots) return 'forbidden'
	const id = userbots[1]
	if (id !== undefined && !keyReachesUserbot(key, Number(id))) return 'not_found'
	if (reading) return null
	// A key kept to some userbots makes none it could not reach.
	if (id === undefined && scopes.userbotIds !== null) return 'forbidden'
	const { groups, commands } = scopes
	if (groups === null && commands === null) return null
	return groups?.includes(LIFECYCLE_GROUP) ? null : 'forbidden'
}
