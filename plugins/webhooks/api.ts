import { Elysia, t } from 'elysia'
import { BEARER_OR_SESSION, documentedOnly, RestSchemas as S } from 'userbot-gateway/plugin'

/**
 * The webhook routes as data (docs/plugins.md#routes-as-data, docs/webhooks.md): path, method, body,
 * answers, summary and auth requirement of each route `build` serves.
 */
const ID = t.Object({ id: S.PathId() })
const security = BEARER_OR_SESSION
const tags = ['webhooks']
const { Int, Id } = S
const When = () => t.Union([t.String({ format: 'date-time' }), t.Null()])

const Endpoint = t.Object({
	id: Id(),
	url: t.String(),
	description: t.String(),
	events: t.Array(t.String()),
	userbot_ids: t.Union([t.Array(Id()), t.Null()]),
	enabled: t.Boolean(),
	disabled_at: When(),
	previous_secret_expires_at: When(),
	created_at: t.String({ format: 'date-time' }),
	updated_at: t.String({ format: 'date-time' }),
})
const WithSecret = t.Composite([
	Endpoint,
	t.Object({ secret: t.String({ description: '`whsec_` + base64 of 32 random bytes: shown this once' }) }),
])
const EndpointBody = t.Object({
	url: t.String({
		maxLength: 2048,
		description: 'https (http with WEBHOOK_ALLOW_HTTP); no internal address',
	}),
	events: t.Optional(t.Array(t.String(), { minItems: 1, maxItems: 300 })),
	userbot_ids: t.Optional(t.Union([t.Array(Id(), { minItems: 1, maxItems: 1000 }), t.Null()])),
	description: t.Optional(t.String({ maxLength: 500 })),
})
const EndpointPatch = t.Partial(t.Composite([EndpointBody, t.Object({ enabled: t.Boolean() })]))
const Delivery = t.Object({
	id: Id(),
	event_id: Id(),
	message_id: t.String({ description: 'the webhook-id header, the same for every attempt' }),
	type: t.String(),
	userbot_id: Id(),
	seq: Int(),
	status: t.Union([t.Literal('pending'), t.Literal('delivered'), t.Literal('failed')]),
	attempts: Int(),
	next_attempt_at: When(),
	last_attempt_at: When(),
	last_response_code: t.Union([Int(), t.Null()]),
	last_response_body: t.Union([t.String({ description: 'at most 1 KiB' }), t.Null()]),
	last_error: t.Union([t.String(), t.Null()]),
	created_at: t.String({ format: 'date-time' }),
})
const Replay = t.Object({
	after_seq: t.Optional(Int()),
	userbot_id: t.Optional(Id()),
	since: t.Optional(t.String({ format: 'date-time' })),
})
const authed = { 401: S.Detail, 403: S.Detail }

export const webhooksApi = new Elysia({ name: 'webhooks-api' })
	.get('/api/webhooks/', documentedOnly, {
		response: { 200: t.Array(Endpoint), ...authed },
		detail: { summary: "The company's webhook endpoints (owner)", tags, security },
	})
	.post('/api/webhooks/', documentedOnly, {
		body: EndpointBody,
		response: { 201: WithSecret, 400: S.FieldErrors, ...authed },
		detail: { summary: 'Adds a webhook endpoint; its secret is shown once (owner)', tags, security },
	})
	.get('/api/webhooks/:id/', documentedOnly, {
		params: ID,
		response: { 200: Endpoint, ...authed, 404: S.Detail },
		detail: { summary: 'One webhook endpoint (owner)', tags, security },
	})
	.patch('/api/webhooks/:id/', documentedOnly, {
		params: ID,
		body: EndpointPatch,
		response: { 200: Endpoint, 400: S.FieldErrors, ...authed, 404: S.Detail },
		detail: {
			summary: 'Changes a webhook endpoint; enabled: true turns it on again (owner)',
			tags,
			security,
		},
	})
	.delete('/api/webhooks/:id/', documentedOnly, {
		params: ID,
		response: { 204: t.Void(), ...authed, 404: S.Detail },
		detail: { summary: 'Deletes a webhook endpoint and its deliveries (owner)', tags, security },
	})
	.post('/api/webhooks/:id/rotate-secret/', documentedOnly, {
		params: ID,
		response: { 200: WithSecret, ...authed, 404: S.Detail },
		detail: { summary: 'A new secret; the old one signs beside it for 24 h (owner)', tags, security },
	})
	.post('/api/webhooks/:id/test/', documentedOnly, {
		params: ID,
		response: { 202: t.Object({ event_id: Id(), message_id: t.String() }), ...authed, 404: S.Detail },
		detail: { summary: 'Sends a webhook.test event to the endpoint (owner)', tags, security },
	})
	.get('/api/webhooks/:id/deliveries/', documentedOnly, {
		params: ID,
		response: { 200: t.Array(Delivery), 400: S.FieldErrors, ...authed, 404: S.Detail },
		detail: {
			summary: 'The endpoint’s deliveries, newest first (?limit, ?before, ?status) (owner)',
			tags,
			security,
		},
	})
	.post('/api/webhooks/:id/replay/', documentedOnly, {
		params: ID,
		body: Replay,
		response: {
			202: t.Object({ replayed: Int(), truncated: t.Boolean() }),
			400: S.FieldErrors,
			...authed,
			404: S.Detail,
		},
		detail: { summary: 'Sends stored events again, failed ones included (owner)', tags, security },
	})
