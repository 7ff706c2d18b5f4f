import { Elysia } from 'elysia'
import {
	type AppContext,
	type AuditEntry,
	answerOtherMethods,
	badRequest,
	HttpError,
	AUTH_MESSAGES as MESSAGES,
	notFound,
	type Principal,
	readJsonObject,
	writeAudit,
} from 'userbot-gateway/plugin'
import { checkEndpointFields, checkReplayFields } from './bodies'
import type { Endpoints } from './endpoints'
import type { OutboxHistory } from './outbox'

const BASE = '/api/webhooks'
const none = { parse: 'none' } as const

/**
 * The REST face of webhooks: a company's endpoints, for its owner alone (a member gets 403, as on the
 * other owner-only routes; an endpoint of another company is 404, as if it did not exist).
 */
export function webhookRoutes(
	ctx: AppContext,
	endpoints: Endpoints,
	history: OutboxHistory,
	kick: () => void,
): Elysia {
	const ownerOf = async (
		request: Request,
	): Promise<{ companyId: number; userId: number; principal: Principal }> => {
		const outcome = await ctx.auth.authenticate(request)
		if (!outcome.ok) throw new HttpError(outcome.status, outcome.body)
		const { companyId, isOwner, userId } = outcome.principal
		if (!isOwner || companyId === null)
			throw new HttpError(403, { detail: MESSAGES.permissionDenied, code: 'permission_denied' })
		return { companyId, userId, principal: outcome.principal }
	}
	/** The audit line of a change of the company's endpoints (never the URL's secrets nor the signing secret). */
	const audit = (
		owner: { principal: Principal },
		server: Parameters<typeof ctx.auth.clientAddress>[0],
		request: Request,
		entry: AuditEntry,
	) => writeAudit(ctx.db, owner.principal, { ...entry, client: ctx.auth.clientAddress(server, request) })
	const idOf = (raw: string | undefined): number => {
		if (raw === undefined || !/^\d{1,15}$/.test(raw)) throw notFound()
		return Number(raw)
	}
	const created = (body: unknown) => Response.json(body, { status: 201 })
	const accepted = (body: unknown) => Response.json(body, { status: 202 })

	const app: Elysia = new Elysia({ name: 'webhooks-routes' })
	app.get(`${BASE}/`, async ({ request }) => endpoints.list((await ownerOf(request)).companyId))
	app.post(
		`${BASE}/`,
		async ({ request, server }) => {
			const owner = await ownerOf(request)
			const fields = checkEndpointFields(await readJsonObject(request), true)
			const made = await endpoints.create(owner.companyId, owner.userId, fields)
			await audit(owner, server, request, { action: 'webhook.created', target: `webhook:${made.id}` })
			return created(made)
		},
		none,
	)
	app.get(`${BASE}/:id/`, async ({ request, params }) => {
		const owner = await ownerOf(request)
		return endpoints.view(owner.companyId, idOf(params.id))
	})
	app.patch(
		`${BASE}/:id/`,
		async ({ request, params, server }) => {
			const owner = await ownerOf(request)
			const id = idOf(params.id)
			await endpoints.row(owner.companyId, id)
			const fields = checkEndpointFields(await readJsonObject(request), false)
			const updated = await endpoints.update(owner.companyId, id, fields)
			// Which fields changed, not their values: a URL may carry credentials of its own.
			const changed = Object.keys(fields)
				.filter((k) => fields[k as keyof typeof fields] !== undefined)
				.map((k) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`))
				.sort()
				.join(',')
			await audit(owner, server, request, {
				action: 'webhook.updated',
				target: `webhook:${id}`,
				detail: { fields: changed },
			})
			return updated
		},
		none,
	)
	app.delete(
		`${BASE}/:id/`,
		async ({ request, params, server }) => {
			const owner = await ownerOf(request)
			const id = idOf(params.id)
			await endpoints.remove(owner.companyId, id)
			await audit(owner, server, request, { action: 'webhook.deleted', target: `webhook:${id}` })
			return new Response(null, { status: 204 })
		},
		none,
	)
	app.post(
		`${BASE}/:id/rotate-secret/`,
		async ({ request, params, server }) => {
			const owner = await ownerOf(request)
			const id = idOf(params.id)
			const rotated = await endpoints.rotate(owner.companyId, id)
			await audit(owner, server, request, { action: 'webhook.secret_rotated', target: `webhook:${id}` })
			return rotated
		},
		none,
	)
	app.post(
		`${BASE}/:id/test/`,
		async ({ request, params }) => {
			const owner = await ownerOf(request)
			const row = await endpoints.row(owner.companyId, idOf(params.id))
			const sent = await history.test(owner.companyId, row.id)
			kick()
			return accepted(sent)
		},
		none,
	)
	app.get(`${BASE}/:id/deliveries/`, async ({ request, params }) => {
		const owner = await ownerOf(request)
		const row = await endpoints.row(owner.companyId, idOf(params.id))
		const query = new URL(request.url).searchParams
		const limit = query.get('limit') ?? '100'
		const before = query.get('before')
		if (!/^\d{1,3}$/.test(limit) || Number(limit) < 1 || Number(limit) > 500)
			throw badRequest({ limit: ['Ensure this value is between 1 and 500.'] })
		if (before !== null && !/^\d{1,15}$/.test(before))
			throw badRequest({ before: ['A valid integer is required.'] })
		const status = query.get('status') ?? undefined
		if (status !== undefined && !['pending', 'delivered', 'failed'].includes(status))
			throw badRequest({ status: ['Select pending, delivered or failed.'] })
		return history.deliveries(row.id, {
			limit: Number(limit),
			...(before === null ? {} : { beforeId: Number(before) }),
			...(status === undefined ? {} : { status }),
		})
	})
	app.post(
		`${BASE}/:id/replay/`,
		async ({ request, params }) => {
			const owner = await ownerOf(request)
			const row = await endpoints.row(owner.companyId, idOf(params.id))
			const fields = checkReplayFields(await readJsonObject(request))
			const outcome = await history.replay(row.id, fields)
			kick()
			return accepted(outcome)
		},
		none,
	)
	answerOtherMethods(app)
	return app
}
