import { describe, expect, it } from 'bun:test'
import { can, type Found, mayRun, reachesEvery } from '../../src/server/policy/can'
import {
	BOT_API_POLICY,
	BOT_TOKEN,
	byParam,
	commandEntry,
	entryFault,
	FRAME_USERBOT,
	inBody,
	MCP_POLICY,
	OF_COMPANY,
	type PolicyEntry,
	PUBLIC_READ,
} from '../../src/server/policy/entry'
import type { Permission } from '../../src/server/policy/permissions'
import { type Principal, standingOf } from '../../src/server/policy/principal'
import type { KeyScopes } from '../../src/server/policy/scopes'

/**
 * The one decision (src/server/policy/can.ts), case by case: every principal kind docs/policy.md names, on
 * a resource of its own and on one it must not reach, and the order in which refusals are made.
 */
const owner: Principal = {
	userId: 1,
	email: 'o@example.com',
	companyId: 1,
	isOwner: true,
	grants: new Set(),
	standing: 'works',
	via: 'bearer',
}
const member = (grants: Permission[] = [], standing: Principal['standing'] = 'works'): Principal => ({
	...owner,
	userId: 2,
	isOwner: false,
	grants: new Set(grants),
	standing,
})
const key = (scopes: Partial<KeyScopes> = {}): Principal => ({
	...owner,
	via: 'key',
	key: {
		id: 9,
		scopes: {
			userbotIds: null,
			groups: null,
			commands: null,
			readOnly: false,
			webhooks: false,
			tdInvoke: false,
			...scopes,
		},
	},
})

const THIS = byParam()
const mine: Found = { finder: THIS, companyId: 1, userbots: [10] }
const beyond: Found = { finder: THIS, companyId: 1, userbots: [11] }
const foreign: Found = { finder: THIS, companyId: 2, userbots: [20] }
const missing: Found = { finder: THIS, companyId: null }

const readUserbot: PolicyEntry = { action: 'read', resource: 'userbot', find: [THIS] }
const useUserbot: PolicyEntry = { action: 'write', resource: 'userbot', find: [THIS], group: 'userbots' }
const manageUserbot: PolicyEntry = {
	action: 'manage',
	resource: 'userbot',
	find: [THIS],
	permission: 'userbots.manage',
	group: 'userbots',
}
const refusal = (d: ReturnType<typeof can>) => (d.ok ? 'allowed' : d.refusal)

describe('who may act at all', () => {
	it('lets anyone, no credential included, do what is public', () => {
		expect(refusal(can(null, PUBLIC_READ))).toBe('allowed')
		expect(refusal(can(member([], 'status_not_allowed'), PUBLIC_READ))).toBe('allowed')
	})

	it('refuses no principal, and the operator’s resource to every principal', () => {
		expect(refusal(can(null, readUserbot, [mine]))).toBe('unauthenticated')
		expect(refusal(can(owner, { action: 'read', resource: 'operator' }))).toBe('unauthenticated')
	})

	it('refuses a member who may not work, and anyone of an inactive company but for reading themself', () => {
		expect(refusal(can(member([], 'status_not_allowed'), readUserbot, [mine]))).toBe('status_not_allowed')
		expect(refusal(can(member([], 'status_not_allowed'), { action: 'read', resource: 'self' }))).toBe(
			'status_not_allowed',
		)
		const off: Principal = { ...owner, standing: 'company_inactive' }
		expect(refusal(can(off, readUserbot, [mine]))).toBe('company_inactive')
		expect(refusal(can(off, { action: 'read', resource: 'self' }))).toBe('allowed')
	})

	it('works out the standing from the profile: owners whatever their status, nobody of an inactive company', () => {
		expect(standingOf({ isOwner: true, allowsWork: false, companyActive: true })).toBe('works')
		expect(standingOf({ isOwner: false, allowsWork: false, companyActive: true })).toBe('status_not_allowed')
		expect(standingOf({ isOwner: true, allowsWork: true, companyActive: false })).toBe('company_inactive')
	})
})

describe('who reaches a kind', () => {
	it("keeps members off the owner's resources, before any of them is looked at", () => {
		for (const resource of ['webhook', 'member', 'invite', 'key', 'audit'] as const)
			expect(
				refusal(can(member(['userbots.manage']), { action: 'read', resource, find: [THIS] }, [foreign])),
			).toBe('permission_denied')
	})

	it('keeps API keys off accounts, members, invites, keys and the audit log, and off webhooks without the scope', () => {
		for (const resource of ['self', 'member', 'invite', 'key', 'audit'] as const)
			expect(
				refusal(can(key(), { action: 'read', resource, find: resource === 'self' ? [] : [THIS] }, [mine])),
			).toBe('key_scope')
		const endpoint: PolicyEntry = { action: 'read', resource: 'webhook', find: [THIS] }
		expect(refusal(can(key(), endpoint, [mine]))).toBe('key_scope')
		expect(refusal(can(key({ webhooks: true }), endpoint, [mine]))).toBe('allowed')
	})
})

describe('the resources a request names', () => {
	it("answers another company's, a missing one and one out of a key's reach alike: not found", () => {
		expect(refusal(can(owner, readUserbot, [foreign]))).toBe('not_found')
		expect(refusal(can(owner, readUserbot, [missing]))).toBe('not_found')
		expect(refusal(can(owner, readUserbot, []))).toBe('not_found')
		const scoped = key({ userbotIds: [10] })
		expect(refusal(can(scoped, readUserbot, [mine]))).toBe('allowed')
		expect(refusal(can(scoped, readUserbot, [beyond]))).toBe('not_found')
	})

	it('reaches a resource that names userbots only when it reaches every one of them', () => {
		const endpoint: PolicyEntry = { action: 'write', resource: 'webhook', find: [THIS] }
		const scoped = key({ userbotIds: [10], webhooks: true })
		const both: Found = { finder: THIS, companyId: 1, userbots: [10, 11] }
		const all: Found = { finder: THIS, companyId: 1, userbots: 'all' }
		expect(refusal(can(scoped, endpoint, [mine]))).toBe('allowed')
		expect(refusal(can(scoped, endpoint, [both]))).toBe('not_found')
		expect(refusal(can(scoped, endpoint, [all]))).toBe('not_found')
		expect(refusal(can(owner, endpoint, [all]))).toBe('allowed')
		expect(reachesEvery(scoped, null)).toBe(false)
		expect(reachesEvery(owner, null)).toBe(true)
	})

	it('refuses userbots a body names out of reach on the field, asking for all of them as out of scope', () => {
		const field = inBody('userbot_ids', 'Each item must be a userbot of the company.')
		const entry: PolicyEntry = { action: 'write', resource: 'webhook', find: [OF_COMPANY, field] }
		const scoped = key({ userbotIds: [10], webhooks: true })
		expect(can(scoped, entry, [{ finder: field, companyId: 1, userbots: [11] }])).toEqual({
			ok: false,
			refusal: 'not_found',
			finder: field,
		})
		expect(refusal(can(scoped, entry, [{ finder: field, companyId: 1, userbots: 'all' }]))).toBe('key_scope')
		expect(refusal(can(scoped, entry, [{ finder: field, companyId: 1, userbots: [10] }]))).toBe('allowed')
		// Left out, the body names nothing: the route gives the endpoint what the caller reaches.
		expect(refusal(can(scoped, entry, []))).toBe('allowed')
	})

	it('lets a key kept to some userbots read the collection, never add to it', () => {
		const list: PolicyEntry = { action: 'read', resource: 'userbot', find: [OF_COMPANY] }
		const create: PolicyEntry = { ...manageUserbot, find: [OF_COMPANY] }
		const scoped = key({ userbotIds: [10] })
		expect(refusal(can(scoped, list))).toBe('allowed')
		expect(refusal(can(scoped, create))).toBe('key_scope')
		expect(refusal(can(key(), create))).toBe('allowed')
		expect(refusal(can({ ...owner, companyId: null }, list))).toBe('not_found')
	})
})

describe('what a key may do there, and what a member was granted', () => {
	it('keeps a read-only key to reads', () => {
		const ro = key({ readOnly: true })
		expect(refusal(can(ro, readUserbot, [mine]))).toBe('allowed')
		expect(refusal(can(ro, useUserbot, [mine]))).toBe('key_scope')
	})

	it('keeps a key with groups or commands to those', () => {
		const send = commandEntry({ action: 'write' }, 'commands-messages', 'send_message')
		const found: Found = { finder: FRAME_USERBOT, companyId: 1, userbots: [10] }
		expect(refusal(can(key({ groups: ['commands-messages'] }), send, [found]))).toBe('allowed')
		expect(refusal(can(key({ commands: ['send_message'] }), send, [found]))).toBe('allowed')
		expect(refusal(can(key({ groups: ['commands-chats'] }), send, [found]))).toBe('key_scope')
		// A REST route's write counts as its group's; a read of no group is every key's.
		expect(refusal(can(key({ commands: ['send_message'] }), useUserbot, [mine]))).toBe('key_scope')
		expect(refusal(can(key({ groups: ['userbots'] }), useUserbot, [mine]))).toBe('allowed')
		expect(refusal(can(key({ commands: ['send_message'] }), readUserbot, [mine]))).toBe('allowed')
	})

	it('lets a member manage only with the grant; a manage of no permission is the owner’s alone', () => {
		expect(refusal(can(member(), manageUserbot, [mine]))).toBe('permission_denied')
		expect(refusal(can(member(['userbots.manage']), manageUserbot, [mine]))).toBe('allowed')
		expect(refusal(can(owner, manageUserbot, [mine]))).toBe('allowed')
		const ownerOnly: PolicyEntry = { action: 'manage', resource: 'userbot', find: [THIS] }
		expect(refusal(can(member(['userbots.manage']), ownerOnly, [mine]))).toBe('permission_denied')
		expect(refusal(can(member(), useUserbot, [mine]))).toBe('allowed')
	})

	it('says no more than the first refusal: the resource before the scope and the grant', () => {
		expect(refusal(can(member(), manageUserbot, [foreign]))).toBe('not_found')
		expect(refusal(can(key({ readOnly: true }), useUserbot, [foreign]))).toBe('not_found')
		expect(
			refusal(can(key({ readOnly: true }), { action: 'write', resource: 'key', find: [THIS] }, [foreign])),
		).toBe('key_scope')
	})
})

describe('a policy entry', () => {
	it('is refused at start when missing or broken, in a sentence', () => {
		expect(entryFault(undefined)).toBe('has no policy entry')
		expect(entryFault({ action: 'read', resource: 'userbot' })).toBe('does not say how its userbot is found')
		expect(
			entryFault({ action: 'write', resource: 'userbot', find: [THIS], permission: 'userbots.manage' }),
		).toBe('names a permission, which only a manage action takes')
		expect(entryFault({ action: 'read', resource: 'public', find: [THIS] })).toBe(
			'finds a resource, which a public entry has none of',
		)
		expect(entryFault({ action: 'delete' as 'read', resource: 'public' })).toBe(
			"has an unknown policy action 'delete'",
		)
		expect(entryFault(manageUserbot)).toBeNull()
		const td = commandEntry({ action: 'manage', tdInvoke: true }, 'commands-td-invoke', 'td_invoke')
		expect(entryFault(td)).toBeNull()
		const fault = 'is a td_invoke entry, which is a manage action without a permission'
		expect(entryFault({ ...td, action: 'write' })).toBe(fault)
		expect(entryFault({ ...td, permission: 'userbots.manage' })).toBe(fault)
	})
})

describe('a td_invoke entry (any TDLib method)', () => {
	const td = commandEntry({ action: 'manage', tdInvoke: true }, 'commands-td-invoke', 'td_invoke')
	const frame = (userbots: number[], companyId = 1): Found => ({ finder: FRAME_USERBOT, companyId, userbots })
	it('lets the owner in, and a key only with the td_invoke scope', () => {
		expect(refusal(can(owner, td, [frame([10])]))).toBe('allowed')
		expect(refusal(can(key(), td, [frame([10])]))).toBe('key_scope')
		expect(refusal(can(key({ tdInvoke: true }), td, [frame([10])]))).toBe('allowed')
		// Its other scopes still apply: read_only, groups, userbots.
		expect(refusal(can(key({ tdInvoke: true, readOnly: true }), td, [frame([10])]))).toBe('key_scope')
		expect(refusal(can(key({ tdInvoke: true, groups: ['commands-messages'] }), td, [frame([10])]))).toBe(
			'key_scope',
		)
		expect(refusal(can(key({ tdInvoke: true, userbotIds: [11] }), td, [frame([10])]))).toBe('not_found')
		expect(refusal(can(key({ tdInvoke: true }), td, [frame([20], 2)]))).toBe('not_found')
	})

	it('keeps members out, granted every permission or not', () => {
		const all: Permission[] = ['userbots.manage', 'security.password', 'sessions.terminate', 'privacy.change']
		expect(refusal(can(member(), td, [frame([10])]))).toBe('permission_denied')
		expect(refusal(can(member(all), td, [frame([10])]))).toBe('permission_denied')
	})
})

describe('the Bot API face (BOT_API_POLICY, found by the token in its path)', () => {
	const bot = (ids: number[] | null, botToken = true): Principal => {
		const k = key({ userbotIds: ids })
		return {
			...k,
			key: { ...(k.key as NonNullable<Principal['key']>), ...(botToken ? { botToken: true as const } : {}) },
		}
	}
	const its = (companyId: number | null, userbots: number[]): Found => ({
		finder: BOT_TOKEN,
		companyId,
		userbots,
	})

	it('admits a principal that came with a Bot API token, to its one userbot', () => {
		expect(can(bot([10]), BOT_API_POLICY, [its(1, [10])])).toEqual({ ok: true })
		// A read_only token reads here: each method's command decides its writes.
		const readOnly = bot([10])
		const k = readOnly.key as NonNullable<Principal['key']>
		const ro = { ...readOnly, key: { ...k, scopes: { ...k.scopes, readOnly: true } } }
		expect(can(ro, BOT_API_POLICY, [its(1, [10])])).toEqual({ ok: true })
	})

	it('refuses every other credential as unauthenticated: the same key as a bearer key, a session, one of many userbots', () => {
		for (const p of [bot([10], false), owner, member(), bot([10, 11]), bot(null)])
			expect(can(p, BOT_API_POLICY, [its(1, [10])])).toMatchObject({ ok: false, refusal: 'unauthenticated' })
	})

	it("answers a token whose userbot is gone, or another company's, not found", () => {
		expect(can(bot([10]), BOT_API_POLICY, [{ finder: BOT_TOKEN, companyId: null }])).toMatchObject({
			ok: false,
			refusal: 'not_found',
		})
		expect(can(bot([10]), BOT_API_POLICY, [its(2, [10])])).toMatchObject({ ok: false, refusal: 'not_found' })
	})
})

describe('the MCP face (MCP_POLICY: an API key alone) and the tools a key may run (mayRun)', () => {
	it('admits a key whose owner works, and refuses a session or an access token as unauthenticated', () => {
		expect(can(key(), MCP_POLICY)).toEqual({ ok: true })
		expect(can(key({ readOnly: true, userbotIds: [10] }), MCP_POLICY)).toEqual({ ok: true })
		for (const p of [owner, { ...owner, via: 'session' as const }, member(['userbots.manage'])])
			expect(can(p, MCP_POLICY)).toMatchObject({ ok: false, refusal: 'unauthenticated' })
		expect(can(null, MCP_POLICY)).toMatchObject({ ok: false, refusal: 'unauthenticated' })
	})

	it("refuses a key whose company is switched off, in the policy's own words", () => {
		expect(can({ ...key(), standing: 'company_inactive' }, MCP_POLICY)).toMatchObject({
			ok: false,
			refusal: 'company_inactive',
		})
		expect(entryFault(MCP_POLICY)).toBeNull()
		expect(entryFault({ ...MCP_POLICY, credential: 'cookie' as 'key' })).toMatch(/unknown credential/)
	})

	it("lists a read for a read_only key and no write; a group's commands for a key of that group", () => {
		const read = commandEntry({ action: 'read' }, 'commands-chats', 'get_chats')
		const send = commandEntry({ action: 'write' }, 'commands-messages', 'send_message')
		const readOnly = key({ readOnly: true })
		expect([mayRun(readOnly, read), mayRun(readOnly, send)]).toEqual([true, false])
		const chats = key({ groups: ['commands-chats'], userbotIds: [10] })
		expect([mayRun(chats, read), mayRun(chats, send)]).toEqual([true, false])
		expect(mayRun(key({ userbotIds: [] }), read)).toBe(false)
		expect(mayRun({ ...key(), standing: 'company_inactive' }, read)).toBe(false)
	})
})
