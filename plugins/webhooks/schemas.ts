import { t } from 'elysia'
import { type EventFilterInput, filterJsonSchema, RestSchemas as S } from 'userbot-gateway/plugin'

/** What the webhook routes answer (docs/webhooks.md), for their definitions in ./routes.ts. */
const { Int, Id } = S
const When = () => t.Union([t.String({ format: 'date-time' }), t.Null()])

export const Endpoint = t.Object({
	id: Id(),
	url: t.String(),
	description: t.String(),
	events: t.Array(t.String()),
	userbot_ids: t.Union([t.Array(Id()), t.Null()]),
	filter: t.Union([t.Unsafe<EventFilterInput>(filterJsonSchema()), t.Null()], {
		description: 'the event filter (docs/webhooks.md#filters); null: every event of its kinds',
	}),
	enabled: t.Boolean(),
	disabled_at: When(),
	previous_secret_expires_at: When(),
	created_at: t.String({ format: 'date-time' }),
	updated_at: t.String({ format: 'date-time' }),
})
export const WithSecret = t.Composite([
	Endpoint,
	t.Object({ secret: t.String({ description: '`whsec_` + base64 of 32 random bytes: shown this once' }) }),
])
export const Delivery = t.Object({
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
export const Sent = t.Object({ event_id: Id(), message_id: t.String() })
export const Replayed = t.Object({ replayed: Int(), truncated: t.Boolean() })
