import { Elysia } from 'elysia'
import {
	type AppContext,
	type AuditEntry,
	answerOtherMethods,
	BEARER_OR_SESSION,
	badRequest,
	byParam,
	companyOf,
	inBody,
	notFound,
	OF_COMPANY,
	type Principal,
	queryInteger,
	reachedUserbots,
	reachesEvery,
	restRoute,
	RestSchemas as S,
	serveRoutes,
	writeAudit,
} from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { EndpointBody, EndpointPatch, endpointFields, Replay, replayFields } from './bodies'
import type { Endpoints } from './endpoints'
import type { OutboxHistory } from './outbox'
import { Delivery, Endpoint, Replayed, Sent, WithSecret } from './schemas'

/**
 * The REST face of webhooks: a company's endpoints, for its owner and the API keys with `webhooks`
 * (a member gets 403, as on the other owner-only routes; an endpoint of another company is 404, as
 * if it did not exist). Each route is one definition (docs/plugins.md#routes-as-data): served from
 * it and described from it. Who may is each route's policy entry (docs/policy.md), decided by the
 * guard before a body is read, and for the userbots a body names once it is checked: an endpoint
 * names userbots, and it is the caller's only when every one of them is (an endpoint of all the
 * company's userbots only for a caller that reaches all of them). An endpoint made without
 * `userbot_ids` gets the userbots its maker reaches; the lists and replays show only those.
 */
export interface Webhooks {
	ctx: AppContext
	endpoints: Endpoints
	history: OutboxHistory
	kick: () => void
}

const idOf = (raw: string | undefined): number => {
	if (raw === undefined || !/^\d{1,15}$/.test(raw)) throw notFound()
	return Number(raw)
}

/** The audit line of a change of the company's endpoints (never the URL's secrets nor the signing secret). */
const audit = (
	{ ctx }: Webhooks,
	principal: Principal,
	input: { server: Parameters<AppContext['auth']['clientAddress']>[0]; request: Request },
	entry: AuditEntry,
) => writeAudit(ctx.db, principal, { ...entry, client: ctx.auth.clientAddress(input.server, input.request) })

const created = (body: unknown) => Response.json(body, { status: 201 })
const accepted = (body: unknown) => Response.json(body, { status: 202 })
const ID = S.IdParams
const security = BEARER_OR_SESSION
const tags = ['webhooks']
const authed = { 401: S.Detail, 403: S.Detail }

/** The live userbots `principal` reaches, sorted; null: every userbot of the company. */
async function liveReach({ ctx }: Webhooks, principal: Principal): Promise<number[] | null> {
	const reached = reachedUserbots(principal)
	if (reached === null) return null
	const records = await Promise.all(reached.map((id) => ctx.userbots.lookup(id)))
	return records
		.flatMap((r) => (r && r.companyId === principal.companyId ? [r.id] : []))
		.sort((a, b) => a - b)
}

/** What a userbot the caller does not reach gets in a body: the words of one that does not exist. */
const NOT_THE_COMPANYS = 'Each item must be a userbot of the company.'
const THIS_ONE = [byParam()] as const
const reads = { action: 'read', resource: 'webhook', find: THIS_ONE } as const
const changes = { action: 'write', resource: 'webhook', find: THIS_ONE } as const

export const webhookRouteList = [
	restRoute({
		method: 'get',
		path: '/api/webhooks/',
		policy: { action: 'read', resource: 'webhook', find: [OF_COMPANY] },
		response: { 200: v.array(Endpoint), ...authed },
		detail: {
			operationId: 'listWebhooks',
			summary: "The company's webhook endpoints (owner)",
			tags,
			security,
		},
		handle: async (w: Webhooks, { principal }) =>
			(await w.endpoints.list(companyOf(principal))).filter((e) => reachesEvery(principal, e.userbot_ids)),
	}),
	restRoute({
		method: 'post',
		path: '/api/webhooks/',
		policy: {
			action: 'write',
			resource: 'webhook',
			find: [OF_COMPANY, inBody('userbot_ids', NOT_THE_COMPANYS)],
		},
		body: EndpointBody,
		response: { 201: WithSecret, 400: S.FieldErrors, ...authed },
		detail: {
			operationId: 'createWebhook',
			summary: 'Adds a webhook endpoint; its secret is shown once (owner)',
			tags,
			security,
		},
		handle: async (w: Webhooks, input) => {
			const { principal } = input
			const fields = endpointFields(input.body, true)
			// Named by nobody, an endpoint is of the userbots its maker reaches: all of them, or a key's
			// (those still there: a key keeps the ids of userbots deleted since it was made).
			if (fields.userbotIds === undefined) fields.userbotIds = await liveReach(w, principal)
			const made = await w.endpoints.create(companyOf(principal), principal.userId, fields)
			await audit(w, principal, input, { action: 'webhook.created', target: `webhook:${made.id}` })
			return created(made)
		},
	}),
	restRoute({
		method: 'get',
		path: '/api/webhooks/:id/',
		policy: reads,
		params: ID,
		response: { 200: Endpoint, ...authed, 404: S.Detail },
		detail: { operationId: 'getWebhook', summary: 'One webhook endpoint (owner)', tags, security },
		handle: (w: Webhooks, { params, principal }) => w.endpoints.view(companyOf(principal), idOf(params.id)),
	}),
	restRoute({
		method: 'patch',
		path: '/api/webhooks/:id/',
		policy: { ...changes, find: [...THIS_ONE, inBody('userbot_ids', NOT_THE_COMPANYS)] },
		params: ID,
		body: EndpointPatch,
		response: { 200: Endpoint, 400: S.FieldErrors, ...authed, 404: S.Detail },
		detail: {
			operationId: 'updateWebhook',
			summary: 'Changes a webhook endpoint; enabled: true turns it on again (owner)',
			tags,
			security,
		},
		handle: async (w: Webhooks, input) => {
			const { principal } = input
			const id = idOf(input.params.id)
			const fields = endpointFields(input.body, false)
			const updated = await w.endpoints.update(companyOf(principal), id, fields)
			// Which fields changed, not their values: a URL may carry credentials of its own.
			const changed = Object.keys(fields)
				.filter((k) => fields[k as keyof typeof fields] !== undefined)
				.map((k) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`))
				.sort()
				.join(',')
			await audit(w, principal, input, {
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
		policy: { ...changes, destructive: true },
		params: ID,
		response: { 204: v.void(), ...authed, 404: S.Detail },
		detail: {
			operationId: 'deleteWebhook',
			summary: 'Deletes a webhook endpoint and its deliveries (owner)',
			tags,
			security,
		},
		handle: async (w: Webhooks, input) => {
			const id = idOf(input.params.id)
			await w.endpoints.remove(companyOf(input.principal), id)
			await audit(w, input.principal, input, { action: 'webhook.deleted', target: `webhook:${id}` })
			return new Response(null, { status: 204 })
		},
	}),
	restRoute({
		method: 'post',
		path: '/api/webhooks/:id/rotate-secret/',
		policy: changes,
		params: ID,
		response: { 200: WithSecret, ...authed, 404: S.Detail, 409: S.Detail },
		detail: {
			operationId: 'rotateWebhookSecret',
			summary: 'A new secret; the old one signs beside it for 24 h (owner)',
			tags,
			security,
		},
		handle: async (w: Webhooks, input) => {
			const id = idOf(input.params.id)
			const rotated = await w.endpoints.rotate(companyOf(input.principal), id)
			await audit(w, input.principal, input, { action: 'webhook.secret_rotated', target: `webhook:${id}` })
			return rotated
		},
	}),
	restRoute({
		method: 'post',
		path: '/api/webhooks/:id/test/',
		policy: changes,
		params: ID,
		response: { 202: Sent, ...authed, 404: S.Detail },
		detail: {
			operationId: 'testWebhook',
			summary: 'Sends a webhook.test event to the endpoint (owner)',
			tags,
			security,
		},
		handle: async (w: Webhooks, { params, principal }) => {
			const sent = await w.history.test(companyOf(principal), idOf(params.id))
			w.kick()
			return accepted(sent)
		},
	}),
	restRoute({
		method: 'get',
		path: '/api/webhooks/:id/deliveries/',
		policy: reads,
		params: ID,
		response: { 200: v.array(Delivery), 400: S.FieldErrors, ...authed, 404: S.Detail },
		detail: {
			operationId: 'listWebhookDeliveries',
			summary: 'The endpoint’s deliveries, newest first (?limit, ?before, ?status) (owner)',
			tags,
			security,
		},
		handle: (w: Webhooks, { params, request, principal }) =>
			w.history.deliveries(idOf(params.id), { ...deliveryQuery(request), reach: reachedUserbots(principal) }),
	}),
	restRoute({
		method: 'post',
		path: '/api/webhooks/:id/replay/',
		policy: { ...changes, find: [...THIS_ONE, inBody('userbot_id', 'A valid userbot id is required.')] },
		params: ID,
		body: Replay,
		response: { 202: Replayed, 400: S.FieldErrors, ...authed, 404: S.Detail },
		detail: {
			operationId: 'replayWebhookEvents',
			summary: 'Sends stored events again, failed ones included (owner)',
			tags,
			security,
		},
		handle: async (w: Webhooks, { body, params, principal }) => {
			const outcome = await w.history.replay(idOf(params.id), replayFields(body), reachedUserbots(principal))
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
	const guard = ctx.auth.guard({
		webhook: (id) => endpoints.located(id),
		userbot: async (id) => {
			const record = await ctx.userbots.lookup(id)
			return record ? { companyId: record.companyId, userbots: [record.id] } : null
		},
	})
	app.use(serveRoutes<Webhooks>({ ctx, endpoints, history, kick }, webhookRouteList, guard))
	answerOtherMethods(app)
	return app
}
