import { Elysia, t } from 'elysia'
import { documentedOnly } from './route-data'
import * as S from './schemas'

/** The operator's routes (docs/operator.md) as data (route-data.ts): API keys and the audit log. */
const ownerOnly: Array<Record<string, string[]>> = [{ bearer: [] }, { session: [] }]
const authed = { 401: S.Detail, 403: S.Detail }

const Scopes = t.Object({
	userbot_ids: t.Union([t.Array(S.Id()), t.Null()]),
	groups: t.Union([t.Array(t.String()), t.Null()]),
	commands: t.Union([t.Array(t.String()), t.Null()]),
	read_only: t.Boolean(),
	webhooks: t.Boolean(),
})
const ApiKey = t.Object({
	id: S.Id(),
	name: t.String(),
	prefix: t.String({ description: 'The first characters of the key, to tell keys apart.' }),
	scopes: Scopes,
	expires_at: t.Union([t.String({ format: 'date-time' }), t.Null()]),
	last_used_at: t.Union([t.String({ format: 'date-time' }), t.Null()]),
	created_at: t.String({ format: 'date-time' }),
})
const NewApiKey = t.Object({
	name: t.String({ maxLength: 100 }),
	expires_at: t.Optional(t.Union([t.String({ format: 'date-time' }), t.Null()])),
	userbot_ids: t.Optional(t.Union([t.Array(S.Id()), t.Null()])),
	groups: t.Optional(t.Union([t.Array(t.String()), t.Null()])),
	commands: t.Optional(t.Union([t.Array(t.String()), t.Null()])),
	read_only: t.Optional(t.Boolean()),
	webhooks: t.Optional(t.Boolean()),
})
const AuditLine = t.Object({
	id: S.Id(),
	at: t.String({ format: 'date-time' }),
	action: t.String(),
	user_id: t.Union([S.Id(), t.Null()]),
	key_id: t.Union([S.Id(), t.Null()]),
	target: t.Union([t.String(), t.Null()]),
	detail: t.Unknown(),
	client: t.Union([t.String(), t.Null()]),
})

export const operatorContract = new Elysia({ name: 'operator-contract' })
	.get('/api/keys/', documentedOnly, {
		response: { 200: t.Array(ApiKey), ...authed },
		detail: { summary: "The company's live API keys (owner only)", tags: ['operator'], security: ownerOnly },
	})
	.post('/api/keys/', documentedOnly, {
		body: NewApiKey,
		response: { 201: t.Composite([ApiKey, t.Object({ key: t.String() })]), 400: S.FieldErrors, ...authed },
		detail: {
			summary: 'Makes an API key: the key is in this answer only (owner only)',
			tags: ['operator'],
			security: ownerOnly,
		},
	})
	.delete('/api/keys/:id/', documentedOnly, {
		params: t.Object({ id: S.PathId() }),
		response: { 204: t.Void(), ...authed, 404: S.Detail },
		detail: {
			summary: 'Revokes an API key: its sockets close at once',
			tags: ['operator'],
			security: ownerOnly,
		},
	})
	.get('/api/audit/', documentedOnly, {
		query: t.Object({ limit: t.Optional(t.String()), before: t.Optional(t.String()) }),
		response: { 200: t.Array(AuditLine), 400: S.FieldErrors, ...authed },
		detail: {
			summary: "The company's audit log, newest first (owner only)",
			tags: ['operator'],
			security: ownerOnly,
		},
	})
