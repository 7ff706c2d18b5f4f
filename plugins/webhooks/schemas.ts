import {
	documentedAs,
	type EventFilterInput,
	filterJsonSchema,
	RestSchemas as S,
} from 'userbot-gateway/plugin'
import * as v from 'valibot'

/** What the webhook routes answer (docs/webhooks.md), for their definitions in ./routes.ts. */
const { Int, Id } = S
const When = () => v.union([v.pipe(v.string(), v.metadata({ format: 'date-time' })), v.null()])

export const Endpoint = v.object({
	id: Id(),
	url: v.string(),
	description: v.string(),
	events: v.array(v.string()),
	userbot_ids: v.union([v.array(Id()), v.null()]),
	filter: v.pipe(
		v.nullable(
			documentedAs(
				v.custom<EventFilterInput>(() => true),
				filterJsonSchema(),
			),
		),
		v.description('the event filter (docs/webhooks.md#filters); null: every event of its kinds'),
	),
	enabled: v.boolean(),
	disabled_at: When(),
	previous_secret_expires_at: When(),
	created_at: v.pipe(v.string(), v.metadata({ format: 'date-time' })),
	updated_at: v.pipe(v.string(), v.metadata({ format: 'date-time' })),
})
export const WithSecret = v.object({
	...Endpoint.entries,
	secret: v.pipe(v.string(), v.description('`whsec_` + base64 of 32 random bytes: shown this once')),
})
export const Delivery = v.object({
	id: Id(),
	event_id: Id(),
	message_id: v.pipe(v.string(), v.description('the webhook-id header, the same for every attempt')),
	type: v.string(),
	userbot_id: Id(),
	seq: Int(),
	status: v.picklist(['pending', 'delivered', 'failed']),
	attempts: Int(),
	next_attempt_at: When(),
	last_attempt_at: When(),
	last_response_code: v.union([Int(), v.null()]),
	last_response_body: v.union([v.pipe(v.string(), v.description('at most 1 KiB')), v.null()]),
	last_error: v.union([v.string(), v.null()]),
	created_at: v.pipe(v.string(), v.metadata({ format: 'date-time' })),
})
export const Sent = v.object({ event_id: Id(), message_id: v.string() })
export const Replayed = v.object({ replayed: Int(), truncated: v.boolean() })
