import type { Permission } from './permissions'

/**
 * A policy entry: what an operation needs, as data on its definition (a REST route's `policy`, a
 * command's `policy`), read by the one decision (`can`, ./can.ts), by the start-up check, by the
 * policy table of docs/policy.md and by the matrix test that tries every route and command with every
 * kind of caller (test/policy/). docs/policy.md says what each field means.
 */

/**
 * What the operation does. `read` changes nothing: it is what a `read_only` API key may do, and what
 * an MCP tool's `readOnlyHint` will say. `write` changes something any member of the company may
 * change. `manage` changes what only the owner may, or a member the owner granted the entry's
 * `permission` (without one, the owner alone).
 */
export const ACTIONS = ['read', 'write', 'manage'] as const
export type Action = (typeof ACTIONS)[number]

/**
 * What the operation acts on. The kind says who reaches it at all (`REACH`, ./can.ts): everyone
 * (`public`), whoever is signed in (`self`, `company`), the company's people (`userbot`), or its
 * owner only (`webhook`, `member`, `invite`, `key`, `audit`); `operator` is the deployment's, behind a
 * token of its own (METRICS_TOKEN) that no principal holds.
 */
export const RESOURCE_KINDS = {
	public: 'nothing of anyone: documents, pages, the account routes that take their credential in the body',
	self: "the caller's own account, and the deployment's reference tables (work statuses, permissions)",
	company: "the caller's company as a whole: the command channel, whose every frame decides again",
	userbot: 'a userbot of the company (a command acts on the one its frame names)',
	webhook: 'a webhook endpoint of the company, and the userbots it names',
	member: 'a member of the company',
	invite: 'an invite to the company',
	key: 'an API key of the company',
	audit: "the company's audit log",
	operator: "the deployment's operator, by a token of its own (METRICS_TOKEN), not a principal",
} as const
export type ResourceKind = keyof typeof RESOURCE_KINDS

/**
 * How the resource is found in the request. `company`: the caller's own company, as a collection
 * (a list shows only what the caller reaches; a new userbot must be reachable by every principal of
 * the company). `param`: a path parameter naming a resource of the entry's kind. `frame`: a field of
 * a WebSocket frame naming a userbot. `body`: a body field naming userbots (an id or a list of ids,
 * or null for all of them); `unknown` is the field error a userbot the caller does not reach gets,
 * the words a userbot that does not exist gets. `token`: a path parameter carrying a Bot API token
 * (docs/bot-api.md), which is both the credential and what names the resource: the caller is the
 * token's API key, and the userbot found is the one that key is kept to.
 */
export type Finder =
	| { readonly from: 'company' }
	| { readonly from: 'param'; readonly name: string }
	| { readonly from: 'frame'; readonly field: string }
	| { readonly from: 'body'; readonly field: string; readonly unknown: string }
	| { readonly from: 'token'; readonly name: string }

export interface PolicyEntry {
	readonly action: Action
	readonly resource: ResourceKind
	/** Where the resource is in the request; every resource it finds must be reachable. */
	readonly find?: readonly Finder[]
	/** For `manage`: the owner-only permission a member may be granted for it (src/server/policy/permissions.ts). */
	readonly permission?: Permission
	/**
	 * It deletes or ends something that cannot be had back as it was (a userbot, a member, a grant, a
	 * key, a message, a session, a chat's membership): what an MCP tool's `destructiveHint` will say.
	 */
	readonly destructive?: true
	/**
	 * The command group it belongs to, for an API key narrowed by `groups`/`commands`: a command's
	 * group (set by the registry), or the group a REST route's writes count as (the userbot
	 * lifecycle's routes: `userbots`). Left out, no group scope applies.
	 */
	readonly group?: string
	/** A command's wire name (set by the registry): a key's `commands` scope lists it. */
	readonly command?: string
	/**
	 * `key`: only a principal that came with an API key (a bearer key, not a session cookie nor an
	 * access token) gets in; any other credential is refused as no credential is (`unauthenticated`).
	 * The MCP face's entry (`MCP_POLICY`). Left out, every credential counts.
	 */
	readonly credential?: 'key'
	/**
	 * It sends TDLib methods the operator lists rather than a command's own (`td_invoke`,
	 * docs/operator.md#any-tdlib-method): an API key reaches it only with its `td_invoke` scope. It
	 * is a `manage` action without a permission: members never reach it, granted or not.
	 */
	readonly tdInvoke?: true
}

/**
 * A command's own part of its entry: it acts on the userbot its frame names, in its group. Only a
 * `manage` action names a permission.
 */
export type CommandPolicy =
	| {
			readonly action: 'read' | 'write'
			readonly permission?: never
			readonly destructive?: true
			readonly tdInvoke?: never
	  }
	| {
			readonly action: 'manage'
			readonly permission?: Permission
			readonly destructive?: true
			readonly tdInvoke?: true
	  }

/** The caller's company, as a collection. */
export const OF_COMPANY: Finder = { from: 'company' }
/** A path parameter naming the resource (`:id` by default). */
export const byParam = (name = 'id'): Finder => ({ from: 'param', name })
/** A body field naming userbots; `unknown` is its field error for one the caller does not reach. */
export const inBody = (field: string, unknown: string): Finder => ({ from: 'body', field, unknown })
/** The WebSocket frame's `userbot_id`. */
export const FRAME_USERBOT: Finder = { from: 'frame', field: 'userbot_id' }

/** The Bot API token of `/bot:token/...`: the credential, and its key's one userbot. */
export const BOT_TOKEN: Finder = { from: 'token', name: 'token' }

/**
 * The Bot API face (`/bot:token/:method`, docs/bot-api.md): only a principal that came with a Bot API
 * token in the path reaches it, and only the one userbot the token's key is kept to. It reads at the
 * route: each method's command then asks for its own entry (a `read_only` token reads, its writes
 * are refused there), and the face's own writes (setWebhook) ask for a key that may write.
 */
export const BOT_API_POLICY: PolicyEntry = { action: 'read', resource: 'userbot', find: [BOT_TOKEN] }

/** Anyone, with or without a credential: nothing of anyone is read or changed. */
export const PUBLIC_READ: PolicyEntry = { action: 'read', resource: 'public' }
export const PUBLIC_WRITE: PolicyEntry = { action: 'write', resource: 'public' }

/**
 * The command channel (`/ws`) is the company's: whoever may work there opens it, an API key
 * included; each frame then asks for its own command and userbot.
 */
export const CHANNEL_POLICY: PolicyEntry = { action: 'read', resource: 'company', find: [OF_COMPANY] }

/**
 * The MCP face (`/mcp`, docs/mcp.md): the company's, as the command channel is, but for an API key
 * alone (an agent's credential is a key, whose scopes decide what it sees); each tool call and
 * resource read then asks for its own command's entry.
 */
export const MCP_POLICY: PolicyEntry = {
	action: 'read',
	resource: 'company',
	find: [OF_COMPANY],
	credential: 'key',
}

/** `subscribe` and `unsubscribe`: reading the userbot the frame names. */
export const SUBSCRIBE_POLICY: PolicyEntry = { action: 'read', resource: 'userbot', find: [FRAME_USERBOT] }

/** The full entry of a command of `group`, from its definition's part. */
export const commandEntry = (policy: CommandPolicy, group: string, command: string): PolicyEntry => ({
	...policy,
	resource: 'userbot',
	find: [FRAME_USERBOT],
	group,
	command,
})

/** Kinds found by a finder: every other kind but `public` and `operator` names one. */
const UNLOCATED: ReadonlySet<ResourceKind> = new Set(['public', 'operator', 'self'])

/**
 * What is wrong with an entry, in a sentence, or null: the start-up check (src/server/plugin/route-owners.ts,
 * src/server/commands/registry.ts) refuses an app whose routes or commands carry a broken one.
 */
export function entryFault(entry: PolicyEntry | undefined): string | null {
	if (!entry || typeof entry !== 'object') return 'has no policy entry'
	if (!ACTIONS.includes(entry.action)) return `has an unknown policy action '${String(entry.action)}'`
	if (!Object.hasOwn(RESOURCE_KINDS, entry.resource))
		return `has an unknown policy resource '${String(entry.resource)}'`
	if (entry.permission !== undefined && entry.action !== 'manage')
		return 'names a permission, which only a manage action takes'
	if (entry.tdInvoke !== undefined && (entry.action !== 'manage' || entry.permission !== undefined))
		return 'is a td_invoke entry, which is a manage action without a permission'
	const located = !UNLOCATED.has(entry.resource)
	if (located && !entry.find?.length) return `does not say how its ${entry.resource} is found`
	if (!located && entry.find?.length) return `finds a resource, which a ${entry.resource} entry has none of`
	if (entry.credential !== undefined && entry.credential !== 'key')
		return `asks for an unknown credential '${String(entry.credential)}'`
	return null
}

/**
 * The entry of a route served by Elysia directly (the core's pages and documents, a plugin's plain
 * route), as one of its hooks: `app.get(path, handler, policyHook(PUBLIC_READ))`. Elysia keeps it on
 * the route, where the start-up check reads it (src/server/plugin/route-owners.ts). A plain route enforces a
 * non-public entry by asking its guard first (`await guard.admit(entry, { request, server, params })`,
 * as `GET /api/audit/` does). `detail` describes the route in the OpenAPI document where it is served
 * (`operationId`, `summary`, `tags`, `responses`). Typed as nothing, because Elysia's hook type has no field for it.
 */
export const policyHook = (entry: PolicyEntry, detail?: Record<string, unknown>): Record<never, never> =>
	(detail ? { policy: entry, detail } : { policy: entry }) as Record<never, never>
