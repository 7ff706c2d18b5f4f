import { and, eq, inArray, isNull } from 'drizzle-orm'
import { Elysia } from 'elysia'
import * as v from 'valibot'
import { userbot } from '../../../db/schema'
import { writeAudit } from '../audit/log'
import { type ApiKeys, type KeyRecord, scopesToJson } from '../auth/api-keys'
import { json } from '../auth/respond'
import type { Principal } from '../auth/types'
import type { RegisteredCommand } from '../commands/registry'
import type { AppContext } from '../context'
import { badRequest, notFound } from '../http/errors'
import { answerOtherMethods } from '../http/methods'
import { describeRoutes, restRoute, serveRoutes } from '../http/rest-route'
import * as S from '../openapi/schemas'
import { byParam, OF_COMPANY } from '../policy/entry'
import { companyOf } from '../policy/principal'
import { ApiKey, INVALID_CHOICE, NewApiKey } from './body'

/**
 * `/api/keys/`: the company's owner makes, lists and revokes API keys (docs/operator.md). The key
 * itself is in the creation's answer only. Neither a member nor a key may manage keys (the policy's
 * kind `key`, docs/policy.md): a key that could make keys could make itself a wider one. Each route is one definition (src/server/http/rest-route.ts):
 * served from it, and described from it in the OpenAPI document.
 */

/** What the routes are served with. */
export interface KeysContext {
	ctx: AppContext
	commands: ReadonlyMap<string, RegisteredCommand>
	keys: ApiKeys
}

const view = (k: KeyRecord) => ({
	id: k.id,
	name: k.name,
	prefix: k.prefix,
	scopes: scopesToJson(k.scopes),
	expires_at: k.expiresAt === null ? null : new Date(k.expiresAt).toISOString(),
	last_used_at: k.lastUsedAt === null ? null : new Date(k.lastUsedAt).toISOString(),
	created_at: new Date(k.createdAt).toISOString(),
	bot_api: k.botUserId !== null,
})

/** The company's owner in person: the kind `key` admits neither a member nor a key (docs/policy.md). */
const ownCompany = (p: Principal) => ({ ...p, companyId: companyOf(p) })

/** Every id names a live userbot of the company; every group and command is one the app serves. */
async function checkScopes(
	{ ctx, commands }: KeysContext,
	companyId: number,
	body: v.InferOutput<typeof NewApiKey>,
) {
	const groupIds = new Set([...commands.values()].map((c) => c.groupId))
	const errors: Record<string, string[]> = {}
	if (body.groups?.some((g) => !groupIds.has(g))) errors.groups = [INVALID_CHOICE]
	if (body.commands?.some((c) => !commands.has(c))) errors.commands = [INVALID_CHOICE]
	const ids = [...new Set(body.userbot_ids ?? [])]
	if (ids.length > 0) {
		const found = await ctx.db
			.select({ id: userbot.id })
			.from(userbot)
			.where(and(eq(userbot.companyId, companyId), inArray(userbot.id, ids), isNull(userbot.deletedAt)))
		if (found.length !== ids.length) errors.userbot_ids = ['Unknown userbot.']
	}
	const expires = body.expires_at ? Date.parse(body.expires_at) : null
	if (expires !== null && expires <= Date.now()) errors.expires_at = ['The expiry must be in the future.']
	if (body.bot_api === true && !errors.userbot_ids && ids.length !== 1) errors.userbot_ids = [ONE_USERBOT]
	if (Object.keys(errors).length > 0) throw badRequest(errors)
	const botUserId = body.bot_api === true ? await accountUserId(ctx, ids[0] as number) : null
	return { ids: body.userbot_ids ? ids : null, expires, botUserId }
}

const ONE_USERBOT = 'A Bot API token names exactly one userbot.'
const NOT_LOGGED_IN = 'The userbot is not logged in.'

/** The Telegram user id of a logged-in userbot's account (TDLib's `getMe`), the token's first part. */
async function accountUserId(ctx: AppContext, userbotId: number): Promise<number> {
	const me = await ctx.runtime
		?.invoke(userbotId, { _: 'getMe' }, { timeoutMs: GET_ME_MS, label: 'userbots:ready' })
		.catch(() => null)
	const id = me?.id
	if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0)
		throw badRequest({ userbot_ids: [NOT_LOGGED_IN] })
	return id
}

/** How long reading the account (`getMe`, answered from TDLib's cache) may take. */
const GET_ME_MS = 10_000

const ownerOnly: Array<Record<string, string[]>> = [{ bearer: [] }, { session: [] }]
const authed = { 401: S.Detail, 403: S.Detail }

export const keyRouteList = [
	restRoute({
		method: 'get',
		path: '/api/keys/',
		policy: { action: 'read', resource: 'key', find: [OF_COMPANY] },
		response: { 200: v.array(ApiKey), ...authed },
		detail: {
			operationId: 'listApiKeys',
			summary: "The company's live API keys (owner only)",
			tags: ['operator'],
			security: ownerOnly,
		},
		handle: async ({ keys }: KeysContext, { principal }) =>
			json((await keys.list(companyOf(principal))).map(view)),
	}),
	restRoute({
		method: 'post',
		path: '/api/keys/',
		policy: { action: 'write', resource: 'key', find: [OF_COMPANY] },
		body: NewApiKey,
		response: {
			201: v.object({
				...ApiKey.entries,
				key: v.string(),
				bot_token: v.optional(
					v.pipe(v.string(), v.description('With `bot_api`: the Bot API token, `<Telegram user id>:<key>`.')),
				),
			}),
			400: S.FieldErrors,
			...authed,
		},
		detail: {
			operationId: 'createApiKey',
			summary: 'Makes an API key: the key is in this answer only (owner only)',
			tags: ['operator'],
			security: ownerOnly,
		},
		handle: async (k: KeysContext, { body, request, server, principal }) => {
			const p = ownCompany(principal)
			const { ids, expires, botUserId } = await checkScopes(k, p.companyId, body)
			const made = await k.keys.create({
				companyId: p.companyId,
				userId: p.userId,
				name: body.name.trim(),
				expiresAt: expires,
				botUserId,
				scopes: {
					userbotIds: ids,
					groups: body.groups ?? null,
					commands: body.commands ?? null,
					readOnly: body.read_only ?? false,
					webhooks: body.webhooks ?? false,
					tdInvoke: body.td_invoke ?? false,
				},
			})
			if (!made) throw badRequest({ non_field_errors: ['This company holds as many API keys as it may.'] })
			await writeAudit(k.ctx.db, p, {
				action: 'key.created',
				target: `key:${made.record.id}`,
				detail: { name: made.record.name },
				client: k.ctx.auth.clientAddress(server, request),
			})
			k.ctx.log.info('api key created', {
				credential: `key:${made.record.id}`,
				companyId: p.companyId,
				by: p.userId,
			})
			const bot =
				made.record.botUserId === null ? {} : { bot_token: `${made.record.botUserId}:${made.secret}` }
			return json({ ...view(made.record), key: made.secret, ...bot }, 201)
		},
	}),
	restRoute({
		method: 'delete',
		path: '/api/keys/:id/',
		policy: { action: 'write', resource: 'key', find: [byParam()], destructive: true },
		params: S.IdParams,
		response: { 204: v.void(), ...authed, 404: S.Detail },
		detail: {
			operationId: 'revokeApiKey',
			summary: 'Revokes an API key: its sockets close at once',
			tags: ['operator'],
			security: ownerOnly,
		},
		handle: async ({ ctx, keys }: KeysContext, { params, request, server, principal }) => {
			const p = ownCompany(principal)
			const id = params.id ?? ''
			if (!/^\d{1,15}$/.test(id)) throw notFound()
			const revoked = await keys.revoke(p.companyId, Number(id))
			if (!revoked) throw notFound()
			await writeAudit(ctx.db, p, {
				action: 'key.revoked',
				target: `key:${revoked.id}`,
				detail: { name: revoked.name },
				client: ctx.auth.clientAddress(server, request),
			})
			ctx.log.info('api key revoked', {
				credential: `key:${revoked.id}`,
				companyId: p.companyId,
				by: p.userId,
			})
			return new Response(null, { status: 204 })
		},
	}),
] as const

/** The keys routes as route data: what the OpenAPI document and the typed client read. */
export const keysApi = describeRoutes('api-keys-api', keyRouteList)

export function keyRoutes(
	ctx: AppContext,
	commands: ReadonlyMap<string, RegisteredCommand>,
	keys: ApiKeys,
): Elysia {
	const app: Elysia = new Elysia({ name: 'api-keys-routes' })
	const guard = ctx.auth.guard({ key: (id) => keys.located(id) })
	app.use(serveRoutes<KeysContext>({ ctx, commands, keys }, keyRouteList, guard))
	answerOtherMethods(app)
	return app
}
