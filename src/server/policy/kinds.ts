import type { Found } from './can'
import type { Finder, PolicyEntry } from './entry'
import { PERMISSION_NAMES } from './permissions'
import type { Principal } from './principal'
import type { KeyScopes } from './scopes'

/**
 * The kinds of caller the policy table (docs/policy.md) and the matrix test (test/policy/) name, and
 * the resources each is tried on. The table is `can` applied to these; the matrix test makes each
 * for real (accounts, members, keys, userbots, endpoints) and checks that the app answers as the
 * table says.
 */

/** An API key's scopes, with `mine` standing for the userbot the caller reaches. */
export interface KindKey {
	/** `own`: userbot D alone, of the caller's company, the one a Bot API token is kept to. */
	userbots: 'mine' | 'own' | null
	groups: readonly string[] | null
	commands: readonly string[] | null
	readOnly: boolean
	webhooks: boolean
	/** The `td_invoke` scope. */
	tdInvoke?: boolean
	/** Presented as a Bot API token in the path. */
	botToken?: true
}

export interface PrincipalKind {
	id: string
	/** What it is, in the table's legend. */
	label: string
	/** Its role, when its credential holds: none for a caller nobody vouches for. */
	as?: 'owner' | 'member' | 'stranger' | 'inactive-company'
	via?: Principal['via']
	grants?: 'all'
	standing?: Principal['standing']
	key?: KindKey
}

const noScopes: KindKey = { userbots: null, groups: null, commands: null, readOnly: false, webhooks: false }

export const PRINCIPAL_KINDS: readonly PrincipalKind[] = [
	{ id: 'none', label: 'no credential' },
	{ id: 'owner-session', label: "the company's owner, session cookie", as: 'owner', via: 'session' },
	{ id: 'owner-bearer', label: "the company's owner, bearer token", as: 'owner', via: 'bearer' },
	{ id: 'member', label: 'a member without grants', as: 'member', via: 'bearer' },
	{
		id: 'member-granted',
		label: 'a member granted every permission',
		as: 'member',
		via: 'bearer',
		grants: 'all',
	},
	{
		id: 'member-on-leave',
		label: 'a member On Leave (a status that does not allow work)',
		as: 'member',
		via: 'bearer',
		standing: 'status_not_allowed',
	},
	{ id: 'account-inactive', label: 'an account switched off (`active` false): its token no longer holds' },
	{
		id: 'company-inactive',
		label: 'the owner of a company switched off',
		as: 'inactive-company',
		via: 'bearer',
		standing: 'company_inactive',
	},
	{ id: 'key', label: 'an API key without scopes', as: 'owner', via: 'key', key: noScopes },
	{
		id: 'key-a',
		label: 'an API key: `userbot_ids` [A], `groups` [userbots, commands-messages], `webhooks`',
		as: 'owner',
		via: 'key',
		key: { ...noScopes, userbots: 'mine', groups: ['userbots', 'commands-messages'], webhooks: true },
	},
	{
		id: 'key-read-only',
		label: 'an API key: `read_only`, `webhooks`',
		as: 'owner',
		via: 'key',
		key: { ...noScopes, readOnly: true, webhooks: true },
	},
	{
		id: 'key-commands',
		label: 'an API key: `commands` [get_me, send_message]',
		as: 'owner',
		via: 'key',
		key: { ...noScopes, commands: ['get_me', 'send_message'] },
	},
	{
		id: 'key-td-invoke',
		label: 'an API key: `td_invoke`',
		as: 'owner',
		via: 'key',
		key: { ...noScopes, tdInvoke: true },
	},
	{ id: 'key-expired', label: 'an API key past its `expires_at`' },
	{ id: 'key-revoked', label: 'a revoked API key' },
	{
		id: 'bot-token',
		label:
			'a Bot API token: an API key made with `bot_api`, kept to its one userbot D; in the path of `/bot:token/...`, as a bearer key elsewhere',
		as: 'owner',
		via: 'key',
		key: { ...noScopes, userbots: 'own', botToken: true },
	},
	{ id: 'stranger', label: "another company's owner", as: 'stranger', via: 'bearer' },
]

/**
 * The resources each operation is tried on. `mine`: of the caller's company, within a key's
 * `userbot_ids` (userbot A; an endpoint of A). `beyond`: of the company, out of the key's reach
 * (userbot B; the endpoint of all the company's userbots). `foreign`: another company's (userbot C;
 * its endpoint). Collections and public routes are tried once.
 */
export const ROLES = ['mine', 'beyond', 'foreign'] as const
export type Role = (typeof ROLES)[number]

/** The roles an entry is tried on: none (one try) when its request names no resource. */
export function rolesOf(entry: PolicyEntry): readonly Role[] {
	// A Bot API token names its own userbot and no other: tried once.
	const named = (entry.find ?? []).some((f) => f.from !== 'company' && f.from !== 'token')
	if (!named) return []
	return entry.resource === 'userbot' || entry.resource === 'webhook' ? ROLES : ['mine', 'foreign']
}

/** The table's ids: companies 1 (the caller's), 2 (the stranger's), 3 (switched off); userbots A, B, C. */
export const WORLD = { mine: 1, stranger: 2, off: 3, A: 1, B: 2, C: 3, D: 4 } as const
const USERBOT: Record<Role, number> = { mine: WORLD.A, beyond: WORLD.B, foreign: WORLD.C }
const COMPANY: Record<Role, number> = { mine: WORLD.mine, beyond: WORLD.mine, foreign: WORLD.stranger }

/** The principal of a kind in the table's world, or null when its credential does not hold. */
export function principalOf(kind: PrincipalKind): Principal | null {
	if (!kind.as) return null
	const companyId =
		kind.as === 'stranger' ? WORLD.stranger : kind.as === 'inactive-company' ? WORLD.off : WORLD.mine
	const key = kind.key && {
		id: 1,
		scopes: {
			userbotIds: kind.key.userbots === 'mine' ? [WORLD.A] : kind.key.userbots === 'own' ? [WORLD.D] : null,
			groups: kind.key.groups,
			commands: kind.key.commands,
			readOnly: kind.key.readOnly,
			webhooks: kind.key.webhooks,
			tdInvoke: kind.key.tdInvoke === true,
		} satisfies KeyScopes,
		...(kind.key.botToken ? { botToken: true as const } : {}),
	}
	return {
		userId: 1,
		email: `${kind.id}@example.com`,
		companyId,
		isOwner: kind.as !== 'member',
		grants: new Set(kind.grants === 'all' ? PERMISSION_NAMES : []),
		standing: kind.standing ?? 'works',
		via: kind.via ?? 'bearer',
		...(key ? { key } : {}),
	}
}

/** What a finder of `entry` finds when the request names the `role`'s resource, as the faces find it. */
export function foundOf(entry: PolicyEntry, finder: Finder, role: Role, principal: Principal | null): Found {
	const company = COMPANY[role]
	// The userbot a Bot API token's key is kept to, whoever holds it (the request names no other).
	if (finder.from === 'token') {
		const d = principal?.key?.scopes.userbotIds?.[0]
		return d === undefined
			? { finder, companyId: null }
			: { finder, companyId: principal?.companyId ?? null, userbots: [d] }
	}
	if (finder.from === 'body') {
		// The guard takes the userbots a body names as the caller's company's, or as nobody's.
		const ours = principal !== null && principal.companyId === company
		return { finder, companyId: ours ? company : null, userbots: [USERBOT[role]] }
	}
	if (entry.resource === 'webhook')
		return { finder, companyId: company, userbots: role === 'beyond' ? 'all' : [USERBOT[role]] }
	if (entry.resource === 'userbot') return { finder, companyId: company, userbots: [USERBOT[role]] }
	return { finder, companyId: company }
}
