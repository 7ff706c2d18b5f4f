import { eq } from 'drizzle-orm'
import { apiKey, company, userProfile } from '../../db/schema'
import { companyCall, joinCompany } from '../gateway/company'
import type { TestInstance } from '../helpers'
import { createLoggedInUserbot, registerUser, sessionCookie, type TestUser } from '../helpers-ws'

/**
 * The world the matrix test (./matrix.test.ts) tries every route and command in, made once, through
 * the REST API like any client (the database only where no route exists: an account or a company
 * switched off, a key's expiry in the past). Each kind of caller of the policy table
 * (src/server/policy/kinds.ts) gets its credential; each kind of resource its `mine`, `beyond` and
 * `foreign` one. It imports nothing of the policy, so that the same world can be built on an older
 * checkout to count what changed (./changed-cells.ts).
 */

export type RoleName = 'mine' | 'beyond' | 'foreign'

/** How one kind of caller presents itself: the headers of a REST request, a socket's too. */
export interface Credential {
	headers: Record<string, string>
	/** A Bot API token, for the path of `/bot:token/...` (the kinds without one put a token of nobody's there). */
	botToken?: string
	/** Bearer token or key for a socket, or the session cookie with its origin. */
	ws: { bearer: string } | { cookie: string; origin: string } | Record<string, never>
}

export interface World {
	t: TestInstance
	credentials: Record<string, Credential>
	/** Ids of the shared resources, by kind and role. */
	ids: Record<string, Partial<Record<RoleName, number>>>
	/** A new resource of `kind` for `role`, for a request that consumes its target (a DELETE). */
	fresh(kind: string, role: RoleName): Promise<number>
	/** Sets again what a consuming request took from its target (a grant, a proxy). */
	restore(what: 'grant' | 'proxy', role: RoleName, id: number): Promise<void>
}

const PROXY = { type: 'socks5', server: '198.51.100.9', port: 1080 }
let counter = 0
const unique = (what: string) => `${what}-${++counter}-${Date.now()}@example.com`

async function ok(res: Response, what: string, status = [200, 201, 204]): Promise<Response> {
	if (!status.includes(res.status)) throw new Error(`${what}: ${res.status} ${await res.text()}`)
	return res
}
const idOf = async (res: Response, what: string) =>
	((await (await ok(res, what)).json()) as { id: number }).id

type Call = (method: string, path: string, body?: unknown) => Promise<Response>

/** The people: the company's owner and members, the stranger, the owner of a company switched off. */
async function people(t: TestInstance) {
	const owner = await registerUser(t, unique('owner'))
	const stranger = await registerUser(t, unique('stranger'))
	const offOwner = await registerUser(t, unique('off'))
	const o1: Call = (method, path, body) => companyCall(t)(method, path, owner.access, body)
	const member = await joinCompany(t, owner, unique('member'))
	const granted = await joinCompany(t, owner, unique('granted'))
	for (const permission of await permissionsOf(t, owner))
		await ok(await o1('POST', `/accounts/members/${granted.userId}/grants/`, { permission }), 'grant')
	const onLeave = await joinCompany(t, owner, unique('leave'))
	const inactive = await joinCompany(t, owner, unique('inactive'))
	await ok(await o1('POST', `/accounts/members/${onLeave.userId}/status/`, { status: 'on_leave' }), 'status')
	// No route switches an account or a company off: an administrator writes the database.
	await t.ctx.db.update(userProfile).set({ active: false }).where(eq(userProfile.id, inactive.userId))
	t.auth.invalidateUser(inactive.userId)
	await t.ctx.db.update(company).set({ active: false }).where(eq(company.id, offOwner.companyId))
	t.auth.invalidateUser(offOwner.userId)
	return { owner, stranger, offOwner, member, granted, onLeave, inactive, o1 }
}

/** The owner's API keys, one per kind of key of the table; `mine` are the userbots the narrowed one reaches. */
async function apiKeys(t: TestInstance, o1: Call, mine: number[]) {
	const keyOf = async (body: Record<string, unknown>) => {
		const res = await ok(await o1('POST', '/api/keys/', { name: `policy ${++counter}`, ...body }), 'key')
		return (await res.json()) as { id: number; key: string }
	}
	const keys = {
		key: await keyOf({}),
		'key-a': await keyOf({ userbot_ids: mine, groups: ['userbots', 'commands-messages'], webhooks: true }),
		'key-read-only': await keyOf({ read_only: true, webhooks: true }),
		'key-commands': await keyOf({ commands: ['get_me', 'send_message'] }),
		'key-td-invoke': await keyOf({ td_invoke: true }),
		'key-expired': await keyOf({ expires_at: new Date(Date.now() + 3600_000).toISOString() }),
		'key-revoked': await keyOf({}),
	}
	await t.ctx.db
		.update(apiKey)
		.set({ expiresAt: Date.now() - 1000 })
		.where(eq(apiKey.id, keys['key-expired'].id))
	await ok(await o1('DELETE', `/api/keys/${keys['key-revoked'].id}/`), 'revoke')
	return keys
}

/**
 * The Bot API token of the table (`bot-token`): a key made with `bot_api`, kept to userbot D, which
 * alone is logged in to Telegram (a token is made only for an account that is; no other kind of
 * caller reaches D, so no other try acts on it).
 */
async function botToken(t: TestInstance, o1: Call, companyId: number) {
	const d = await createLoggedInUserbot(t, companyId, '9996614444')
	const res = await ok(
		await o1('POST', '/api/keys/', { name: `policy bot ${++counter}`, bot_api: true, userbot_ids: [d] }),
		'bot token',
	)
	return (await res.json()) as { key: string; bot_token: string }
}

/** Builds the world on `t`, whose `/api/webhooks/` takes endpoints on 127.0.0.1 over http. */
export async function buildWorld(t: TestInstance): Promise<World> {
	const p = await people(t)
	const o2: Call = (method, path, body) => companyCall(t)(method, path, p.stranger.access, body)
	const ownerOf = (role: RoleName) => (role === 'foreign' ? o2 : p.o1)
	const userbotFor = async (role: RoleName) => {
		const id = await idOf(
			await ownerOf(role)('POST', '/api/userbots/', { name: `policy ${role}` }),
			'userbot',
		)
		await ok(await ownerOf(role)('PUT', `/api/userbots/${id}/proxy/`, PROXY), 'proxy')
		return id
	}
	const a = await userbotFor('mine')
	const b = await userbotFor('beyond')
	const c = await userbotFor('foreign')
	// The `mine` userbots a consuming request may take, all within the narrowed key's reach.
	const spares: number[] = []
	for (let i = 0; i < 6; i++) spares.push(await userbotFor('mine'))
	const keys = await apiKeys(t, p.o1, [a, ...spares])
	const bot = await botToken(t, p.o1, p.owner.companyId)
	const makers: Record<string, (role: RoleName) => Promise<number>> = {
		userbot: async (role) =>
			role === 'mine' ? (spares.shift() ?? Promise.reject(new Error('no spare'))) : userbotFor(role),
		webhook: async (role) => {
			const userbots = role === 'mine' ? { userbot_ids: [a] } : role === 'foreign' ? { userbot_ids: [c] } : {}
			const hook = { url: 'http://127.0.0.1:9/policy-hook', ...userbots }
			return idOf(await ownerOf(role)('POST', '/api/webhooks/', hook), 'webhook')
		},
		member: async (role) =>
			(await joinCompany(t, role === 'foreign' ? p.stranger : p.owner, unique('target'))).userId,
		invite: async (role) => idOf(await ownerOf(role)('POST', '/accounts/invites/', {}), 'invite'),
		key: async (role) =>
			idOf(await ownerOf(role)('POST', '/api/keys/', { name: `target ${++counter}` }), 'target key'),
	}
	const ids: World['ids'] = { userbot: { mine: a, beyond: b, foreign: c } }
	for (const kind of ['webhook', 'member', 'invite', 'key']) {
		const roles: RoleName[] = kind === 'webhook' ? ['mine', 'beyond', 'foreign'] : ['mine', 'foreign']
		ids[kind] = {}
		for (const role of roles) ids[kind][role] = await (makers[kind] as (r: RoleName) => Promise<number>)(role)
	}
	return {
		t,
		credentials: {
			...(await credentialsOf(t, p, keys)),
			'bot-token': {
				headers: { authorization: `Bearer ${bot.key}` },
				ws: { bearer: bot.key },
				botToken: bot.bot_token,
			},
		},
		ids,
		fresh: (kind, role) => {
			const make = makers[kind]
			if (!make) throw new Error(`no fresh ${kind}`)
			return make(role)
		},
		async restore(what, role, id) {
			const again =
				what === 'grant'
					? await ownerOf(role)('POST', `/accounts/members/${id}/grants/`, { permission: 'userbots.manage' })
					: await ownerOf(role)('PUT', `/api/userbots/${id}/proxy/`, PROXY)
			await ok(again, `${what} again`)
		},
	}
}

/** Each kind of caller's credential, by the table's ids (src/server/policy/kinds.ts). */
async function credentialsOf(
	t: TestInstance,
	p: Awaited<ReturnType<typeof people>>,
	keys: Record<string, { key: string }>,
): Promise<Record<string, Credential>> {
	const cookie = await sessionCookie(t, p.owner)
	const bearer = (token: string): Credential => ({
		headers: { authorization: `Bearer ${token}` },
		ws: { bearer: token },
	})
	return {
		none: { headers: {}, ws: {} },
		'owner-session': { headers: { cookie, origin: t.url }, ws: { cookie, origin: t.url } },
		'owner-bearer': bearer(p.owner.access),
		member: bearer(p.member.access),
		'member-granted': bearer(p.granted.access),
		'member-on-leave': bearer(p.onLeave.access),
		'account-inactive': bearer(p.inactive.access),
		'company-inactive': bearer(p.offOwner.access),
		stranger: bearer(p.stranger.access),
		...Object.fromEntries(Object.entries(keys).map(([kind, k]) => [kind, bearer(k.key)])),
	}
}

/** The owner-only permissions this server has: all of them go to the granted member. */
async function permissionsOf(t: TestInstance, owner: TestUser): Promise<string[]> {
	const res = await companyCall(t)('GET', '/accounts/permissions/', owner.access)
	return ((await res.json()) as Array<{ code: string }>).map((p) => p.code)
}
