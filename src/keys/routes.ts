import { and, eq, inArray, isNull } from 'drizzle-orm'
import { Elysia } from 'elysia'
import * as v from 'valibot'
import { userbot } from '../../db/schema'
import { writeAudit } from '../audit/log'
import { type ApiKeys, type KeyRecord, scopesToJson } from '../auth/api-keys'
import { MESSAGES } from '../auth/errors'
import { json } from '../auth/respond'
import type { Principal } from '../auth/types'
import type { RegisteredCommand } from '../commands/registry'
import type { AppContext } from '../context'
import { checkBody, readJsonObject } from '../http/body'
import { badRequest, HttpError, notFound } from '../http/errors'
import { answerOtherMethods } from '../http/methods'
import { textFault } from '../text'

/**
 * `/api/keys/`: the company's owner makes, lists and revokes API keys (docs/operator.md). The key
 * itself is in the creation's answer only. Neither a member nor a key may manage keys: a key that
 * could make keys could make itself a wider one.
 */
const BASE = '/api/keys'
const MAX_IDS = 1000
const INVALID_CHOICE = 'Select a valid choice. That choice is not one of the available choices.'

const nameSchema = v.pipe(
	v.string('Not a valid string.'),
	v.trim(),
	v.nonEmpty('This field may not be blank.'),
	v.maxLength(100, 'Ensure this field has no more than 100 characters.'),
	v.check((s) => textFault(s) === null, 'Control characters are not allowed.'),
)
const names = v.nullish(
	v.pipe(
		v.array(
			v.pipe(v.string('Not a valid string.'), v.maxLength(100, INVALID_CHOICE)),
			'Expected a list of items.',
		),
		v.maxLength(MAX_IDS, `Ensure this field has no more than ${MAX_IDS} elements.`),
	),
)
const createBody = v.object({
	name: v.pipe(
		v.unknown(),
		v.check((x) => x !== undefined && x !== null, MESSAGES.required),
		nameSchema,
	),
	expires_at: v.nullish(
		v.pipe(
			v.string('Not a valid string.'),
			v.check((s) => s.length <= 40 && Number.isFinite(Date.parse(s)), 'Enter a valid date and time.'),
		),
	),
	userbot_ids: v.nullish(
		v.pipe(
			v.array(
				v.pipe(v.number('A valid integer is required.'), v.safeInteger('A valid integer is required.')),
			),
			v.maxLength(MAX_IDS, `Ensure this field has no more than ${MAX_IDS} elements.`),
		),
	),
	groups: names,
	commands: names,
	read_only: v.optional(v.boolean('Must be a valid boolean.'), false),
	webhooks: v.optional(v.boolean('Must be a valid boolean.'), false),
})

const view = (k: KeyRecord) => ({
	id: k.id,
	name: k.name,
	prefix: k.prefix,
	scopes: scopesToJson(k.scopes),
	expires_at: k.expiresAt === null ? null : new Date(k.expiresAt).toISOString(),
	last_used_at: k.lastUsedAt === null ? null : new Date(k.lastUsedAt).toISOString(),
	created_at: new Date(k.createdAt).toISOString(),
})

export function keyRoutes(
	ctx: AppContext,
	commands: ReadonlyMap<string, RegisteredCommand>,
	keys: ApiKeys,
): Elysia {
	const groupIds = new Set([...commands.values()].map((c) => c.groupId))

	/** The company's owner, in person (not through a key), or a 401/403. */
	const owner = async (request: Request): Promise<Principal & { companyId: number }> => {
		const outcome = await ctx.auth.resolve(request)
		if (!outcome.ok) throw new HttpError(outcome.status, outcome.body)
		const p = outcome.caller.principal
		if (!p.isOwner || p.companyId === null || p.key) {
			throw new HttpError(403, { detail: MESSAGES.permissionDenied, code: 'permission_denied' })
		}
		return { ...p, companyId: p.companyId }
	}

	/** Every id names a live userbot of the company; every group and command is one the app serves. */
	const checkScopes = async (companyId: number, body: v.InferOutput<typeof createBody>) => {
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
		if (Object.keys(errors).length > 0) throw badRequest(errors)
		return { ids: body.userbot_ids ? ids : null, expires }
	}

	const app: Elysia = new Elysia({ name: 'api-keys-routes' })
	app.get(`${BASE}/`, async ({ request }) => {
		const p = await owner(request)
		return json((await keys.list(p.companyId)).map(view))
	})
	app.post(
		`${BASE}/`,
		async ({ request, server }) => {
			const p = await owner(request)
			const body = checkBody(createBody, await readJsonObject(request))
			const { ids, expires } = await checkScopes(p.companyId, body)
			const made = await keys.create({
				companyId: p.companyId,
				userId: p.userId,
				name: body.name,
				expiresAt: expires,
				scopes: {
					userbotIds: ids,
					groups: body.groups ?? null,
					commands: body.commands ?? null,
					readOnly: body.read_only,
					webhooks: body.webhooks,
				},
			})
			if (!made) throw badRequest({ non_field_errors: ['This company holds as many API keys as it may.'] })
			await writeAudit(ctx.db, p, {
				action: 'key.created',
				target: `key:${made.record.id}`,
				detail: { name: made.record.name },
				client: ctx.auth.clientAddress(server, request),
			})
			ctx.log.info('api key created', {
				credential: `key:${made.record.id}`,
				companyId: p.companyId,
				by: p.userId,
			})
			return json({ ...view(made.record), key: made.secret }, 201)
		},
		{ parse: 'none' },
	)
	app.delete(
		`${BASE}/:id/`,
		async ({ request, params, server }) => {
			const p = await owner(request)
			if (!/^\d{1,15}$/.test(params.id)) throw notFound()
			const revoked = await keys.revoke(p.companyId, Number(params.id))
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
		{ parse: 'none' },
	)
	answerOtherMethods(app)
	return app
}
