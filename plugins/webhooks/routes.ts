import { Elysia, t } from 'elysia'
import {
	type AppContext,
	type AuditEntry,
	answerOtherMethods,
	BEARER_OR_SESSION,
	badRequest,
	HttpError,
	AUTH_MESSAGES as MESSAGES,
	notFound,
	type Principal,
	queryInteger,
	restRoute,
	RestSchemas as S,
	serveRoutes,
	writeAudit,
} from 'userbot-gateway/plugin'
import { EndpointBody, EndpointPatch, endpointFields, Replay, replayFields } from './bodies'
import type { Endpoints } from './endpoints'
import type { OutboxHistory } from './outbox'
import { Delivery, Endpoint, Replayed, Sent, WithSecret } from './schemas'

/**
 * The REST face of webhooks: a company's endpoints, for its owner alone (a member gets 403, as on the
 * other owner-only routes; an endpoint of another company is 404, as if it did not exist). Each route
 * is one definition (docs/plugins.md#routes-as-data): served from it and described from it. The
 * owner is checked before a body is read, and where a route names an endpoint, the endpoint too.
 */
export interface Webhooks {
	ctx: AppContext
	endpoints: Endpoints
	history: OutboxHistory
	kick: () => void
}

interface Owner {
	companyId: number
	userId: number
	principal: Principal
}

async function owner({ ctx }: Webhooks, { request }: { request: Request }): Promise<Owner> {
	const outcome = await ctx.auth.authenticate(request)
	if (!outcome.ok) throw new HttpError(outcome.status, outcome.body)
	const { companyId, isOwner, userId } = outcome.principal
	if (!isOwner || companyId === null)
		throw new HttpError(403, { detail: MESSAGES.permissionDenied, code: 'permission_denied' })
	return { companyId, userId, principal: outcome.principal }
}

const idOf = (raw: string | undefined): number => {
	if (raw === undefined || !/^\d{1,15}$/.test(raw)) throw notFound()
	return Number(raw)
}

/** The owner and the endpoint the path names (404 when not theirs), before the body is read. */
async function ownedEndpoint(w: Webhooks, request: { request: Request; params: Record<string, string> }) {
	const who = await owner(w, request)
	const row = await w.endpoints.row(who.companyId, idOf(request.params.id))
	return { owner: who, id: row.id }
}

/** The audit line of a change of the company's endpoints (never the URL's secrets nor the signing secret). */
const audit = (
	{ ctx }: Webhooks,
	who: Owner,
	input: { server: Parameters<AppContext['auth']['clientAddress']>[0]; request: Request },
	entry: AuditEntry,
) =>
	writeAudit(ctx.db, who.principal, { ...entry, client: ctx.auth.clientAddress(input.server, input.request) })

const created = (body: unknown) => Response.json(body, { status: 201 })
const accepted = (body: unknown) => Response.json(body, { status: 202 })
const ID = t.Object({ id: S.PathId() })
const security = BEARER_OR_SESSION
const tags = ['webhooks']
const authed = { 401: S.Detail, 403: S.Detail }

export const webhookRouteList = [
	restRoute({
		method: 'get',
		path: '/api/webhooks/',
		response: { 200: t.Array(Endpoint), ...authed },
		detail: { summary: "The company's webhook endpoints (owner)", tags, security },
		before: owner,
		handle: (w: Webhooks, { pre }) => w.endpoints.list(pre.companyId),
	}),
	restRoute({
		method: 'post',
		path: '/api/webhooks/',
		body: EndpointBody,
		response: { 201: WithSecret, 400: S.FieldErrors, ...authed },
		detail: { summary: 'Adds a webhook endpoint; its secret is shown once (owner)', tags, security },
		before: owner,
		handle: async (w: Webhooks, input) => {
			const made = await w.endpoints.create(
				input.pre.companyId,
				input.pre.userId,
				endpointFields(input.body, true),
			)
			await audit(w, input.pre, input, { action: 'webhook.created', target: `webhook:${made.id}` })
			return created(made)
		},
	}),
	restRoute({
		method: 'get',
		path: '/api/webhooks/:id/',
		params: ID,
		response: { 200: Endpoint, ...authed, 404: S.Detail },
		detail: { summary: 'One webhook endpoint (owner)', tags, security },
		before: owner,
		handle: (w: Webhooks, { params, pre }) => w.endpoints.view(pre.companyId, idOf(params.id)),
	}),
	restRoute({
		method: 'patch',
		path: '/api/webhooks/:id/',
		params: ID,
		body: EndpointPatch,
		response: { 200: Endpoint, 400: S.FieldErrors, ...authed, 404: S.Detail },
		detail: {
			summary: 'Changes a webhook endpoint; enabled: true turns it on again (owner)',
			tags,
			security,
		},
		before: ownedEndpoint,
		handle: async (w: Webhooks, input) => {
			const { owner: who, id } = input.pre
			const fields = endpointFields(input.body, false)
			const updated = await w.endpoints.update(who.companyId, id, fields)
			// Which fields changed, not their values: a URL may carry credentials of its own.
			const changed = Object.keys(fields)
				.filter((k) => fields[k as keyof typeof fields] !== undefined)
				.map((k) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`))
				.sort()
				.join(',')
			await audit(w, who, input, {
				action: 'webhook.updated',
				target: `webhook:${id}`,
				detail: { fields: changed },
			})
			return updated
		},
	}),
	restRoute({
		method: 'delete',
		path: '/api/webhooks/:id/',
		params: ID,
		response: { 204: t.Void(), ...authed, 404: S.Detail },
		detail: { summary: 'Deletes a webhook endpoint and its deliveries (owner)', tags, security },
		before: owner,
		handle: async (w: Webhooks, input) => {
			const id = idOf(input.params.id)
			await w.endpoints.remove(input.pre.companyId, id)
			await audit(w, input.pre, input, { action: 'webhook.deleted', target: `webhook:${id}` })
			return new Response(null, { status: 204 })
		},
	}),
	restRoute({
		method: 'post',
		path: '/api/webhooks/:id/rotate-secret/',
		params: ID,
		response: { 200: WithSecret, ...authed, 404: S.Detail },
		detail: { summary: 'A new secret; the old one signs beside it for 24 h (owner)', tags, security },
		before: owner,
		handle: async (w: Webhooks, input) => {
			const id = idOf(input.params.id)
			const rotated = await w.endpoints.rotate(input.pre.companyId, id)
			await audit(w, input.pre, input, { action: 'webhook.secret_rotated', target: `webhook:${id}` })
			return rotated
		},
	}),
	restRoute({
		method: 'post',
		path: '/api/webhooks/:id/test/',
		params: ID,
		response: { 202: Sent, ...authed, 404: S.Detail },
		detail: { summary: 'Sends a webhook.test event to the endpoint (owner)', tags, security },
		before: ownedEndpoint,
		handle: async (w: Webhooks, { pre }) => {
			const sent = await w.history.test(pre.owner.companyId, pre.id)
			w.kick()
			return accepted(sent)
		},
	}),
	restRoute({
		method: 'get',
		path: '/api/webhooks/:id/deliveries/',
		params: ID,
		response: { 200: t.Array(Delivery), 400: S.FieldErrors, ...authed, 404: S.Detail },
		detail: {
			summary: 'The endpoint’s deliveries, newest first (?limit, ?before, ?status) (owner)',
			tags,
			security,
		},
		before: ownedEndpoint,
		handle: (w: Webhooks, { request, pre }) => w.history.deliveries(pre.id, deliveryQuery(request)),
	}),
	restRoute({
		method: 'post',
		path: '/api/webhooks/:id/replay/',
		params: ID,
		body: Replay,
		response: { 202: Replayed, 400: S.FieldErrors, ...authed, 404: S.Detail },
		detail: { summary: 'Sends stored events again, failed ones included (owner)', tags, security },
		before: ownedEndpoint,
		handle: async (w: Webhooks, { body, pre }) => {
			const outcome = await w.history.replay(pre.id, replayFields(body))
			w.kick()
			return accepted(outcome)
		},
	}),
] as const

/** `?limit`, `?before` and `?status` of the deliveries' list, checked. */
function deliveryQuery(request: Request) {
	const query = new URL(request.url).searchParams
	const limit = queryInteger(query, 'limit', { min: 1, max: 500 }) ?? 100
	const before = queryInteger(query, 'before', { min: 0, max: Number.MAX_SAFE_INTEGER })
	const status = query.get('status') ?? undefined
	if (status !== undefined && !['pending', 'delivered', 'failed'].includes(status))
		throw badRequest({ status: ['Select pending, delivered or failed.'] })
	return {
		limit,
		...(before === undefined ? {} : { beforeId: before }),
		...(status === undefined ? {} : { status }),
	}
}

export function webhookRoutes(
	ctx: AppContext,
	endpoints: Endpoints,
	history: OutboxHistory,
	kick: () => void,
): Elysia {
	const app: Elysia = new Elysia({ name: 'webhooks-routes' })
	app.use(serveRoutes<Webhooks>({ ctx, endpoints, history, kick }, webhookRouteList))
	answerOtherMethods(app)
	return app
}
