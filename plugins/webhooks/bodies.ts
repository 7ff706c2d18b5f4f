import {
	type EventFilterInput,
	faulted,
	filterJsonSchema,
	AUTH_MESSAGES as MESSAGES,
	parseFilter,
	requiredField,
} from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { isEventName } from './kinds'

/**
 * The bodies of the webhook routes, each written once (valibot): the schema the route validates and the
 * document shows. Each field is checked by its rule (`faulted`), which says what is wrong in our
 * words, never quoting what was sent; the JSON is what the document always showed. The checked
 * body then becomes the fields the store takes (`endpointFields`, `replayFields`).
 */
export interface EndpointFields {
	url?: string
	events?: string[]
	/** null: every userbot of the company. */
	userbotIds?: number[] | null
	description?: string
	enabled?: boolean
	/** The event filter (docs/webhooks.md#filters) as checked; null: none. */
	filter?: EventFilterInput | null
}

export interface ReplayFields {
	afterSeq?: number
	userbotId?: number
	since?: number
}

const MAX_EVENTS = 300
const MAX_USERBOTS = 1000
const MAX_DESCRIPTION = 500
const MAX_URL = 2048

const absent = (x: unknown) => x === undefined || x === null
const safeInt = (x: unknown, min: number) => Number.isSafeInteger(x) && (x as number) >= min

const urlFault = (creating: boolean) => (url: unknown) => {
	if (absent(url)) return creating ? MESSAGES.required : null
	if (typeof url !== 'string') return MESSAGES.notString
	return url.length > MAX_URL ? MESSAGES.maxLength(MAX_URL) : null
}
const eventsFault = (events: unknown) => {
	if (absent(events)) return null
	if (!Array.isArray(events)) return 'Expected a list of event types.'
	if (events.length === 0) return 'Name at least one event type.'
	if (events.length > MAX_EVENTS) return `Name at most ${MAX_EVENTS} event types.`
	return events.every((e) => typeof e === 'string' && isEventName(e))
		? null
		: 'Each item must be an update kind of TDLib or an event type of the gateway.'
}
const userbotIdsFault = (ids: unknown) => {
	if (absent(ids)) return null
	if (!Array.isArray(ids)) return 'Expected a list of userbot ids, or null.'
	if (ids.length > MAX_USERBOTS) return `Name at most ${MAX_USERBOTS} userbots.`
	return ids.every((i) => safeInt(i, 1)) ? null : 'Each item must be a userbot id.'
}
const descriptionFault = (d: unknown) => {
	if (absent(d)) return null
	if (typeof d !== 'string') return MESSAGES.notString
	return d.length > MAX_DESCRIPTION ? MESSAGES.maxLength(MAX_DESCRIPTION) : null
}
/** The filter object of subscriptions too (src/server/updates/filter.ts), checked whole; null: none. */
const filterFault = (x: unknown) => {
	if (x === null) return null
	const checked = parseFilter(x)
	return checked.ok ? null : checked.error
}
const enabledFault = (x: unknown) =>
	x === undefined || typeof x === 'boolean' ? null : 'Must be a valid boolean.'

const id = { type: 'integer', format: 'int64' }
const endpointProperties = (creating: boolean) => ({
	url: faulted<string>(urlFault(creating), {
		maxLength: MAX_URL,
		description: 'https (http with WEBHOOK_ALLOW_HTTP); no internal address',
		type: 'string',
	}),
	events: v.optional(
		faulted<string[] | null>(eventsFault, {
			minItems: 1,
			maxItems: MAX_EVENTS,
			type: 'array',
			items: { type: 'string' },
		}),
	),
	userbot_ids: v.optional(
		faulted<number[] | null>(userbotIdsFault, {
			anyOf: [{ minItems: 1, maxItems: MAX_USERBOTS, type: 'array', items: id }, { type: 'null' }],
		}),
	),
	description: v.optional(
		faulted<string | null>(descriptionFault, { maxLength: MAX_DESCRIPTION, type: 'string' }),
	),
	filter: v.optional(
		faulted<Record<string, unknown> | null>(filterFault, { anyOf: [filterJsonSchema(), { type: 'null' }] }),
	),
})

/** `POST /api/webhooks/`: `url` is required; `enabled` is not read (a new endpoint is on). */
export const EndpointBody = v.looseObject(endpointProperties(true), requiredField)

/** `PATCH /api/webhooks/:id/`: any of the fields, and `enabled`. */
const { url, ...rest } = endpointProperties(false)
export const EndpointPatch = v.looseObject(
	{
		url: v.optional(url),
		...rest,
		enabled: v.optional(faulted<boolean>(enabledFault, { type: 'boolean' })),
	},
	requiredField,
)

/** `POST /api/webhooks/:id/replay/`: what to send again (all of it when empty). */
export const Replay = v.looseObject(
	{
		after_seq: v.optional(
			faulted<number | null>(
				(x) => (absent(x) || safeInt(x, 0) ? null : 'A valid non-negative integer is required.'),
				{ type: 'integer' },
			),
		),
		userbot_id: v.optional(
			faulted<number | null>(
				(x) => (absent(x) || safeInt(x, 1) ? null : 'A valid userbot id is required.'),
				id,
			),
		),
		since: v.optional(
			faulted<string | null>(
				(x) =>
					absent(x) || (typeof x === 'string' && x.length <= 64 && !Number.isNaN(Date.parse(x)))
						? null
						: 'Datetime has wrong format. Use ISO 8601.',
				{ format: 'date-time', type: 'string' },
			),
		),
	},
	requiredField,
)

type EndpointInput = {
	url?: string | null
	events?: string[] | null
	userbot_ids?: number[] | null
	description?: string | null
	enabled?: boolean
	filter?: Record<string, unknown> | null
}

/** A checked endpoint body as the store takes it: the URL trimmed, events once each, ids sorted. */
export function endpointFields(body: EndpointInput, creating: boolean): EndpointFields {
	const out: EndpointFields = {}
	if (typeof body.url === 'string') out.url = body.url.trim()
	if (Array.isArray(body.events)) out.events = [...new Set(body.events)]
	if (body.userbot_ids === null) out.userbotIds = null
	else if (Array.isArray(body.userbot_ids))
		out.userbotIds = [...new Set(body.userbot_ids)].sort((a, b) => a - b)
	if (typeof body.description === 'string') out.description = body.description
	if (body.filter === null) out.filter = null
	else if (body.filter !== undefined) {
		// Checked already (`filterFault`); kept as checked, `{}` as none.
		const checked = parseFilter(body.filter)
		out.filter = checked.ok ? (checked.input ?? null) : null
	}
	if (!creating && typeof body.enabled === 'boolean') out.enabled = body.enabled
	return out
}

/** A checked replay body as the history takes it. */
export function replayFields(body: {
	after_seq?: number | null
	userbot_id?: number | null
	since?: string | null
}) {
	const out: ReplayFields = {}
	if (typeof body.after_seq === 'number') out.afterSeq = body.after_seq
	if (typeof body.userbot_id === 'number') out.userbotId = body.userbot_id
	if (typeof body.since === 'string') out.since = Date.parse(body.since)
	return out
}
