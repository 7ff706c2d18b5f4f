import { badRequest, AUTH_MESSAGES as MESSAGES } from 'userbot-gateway/plugin'
import { isEventName } from './kinds'

/**
 * The fields of an endpoint as a client sends them, checked whole before anything is written. Each
 * error names the field and says what is wrong in our words, never quoting what was sent.
 */
export interface EndpointFields {
	url?: string
	events?: string[]
	/** null: every userbot of the company. */
	userbotIds?: number[] | null
	description?: string
	enabled?: boolean
}

const MAX_EVENTS = 300
const MAX_USERBOTS = 1000
const MAX_DESCRIPTION = 500
const MAX_URL = 2048

export function checkEndpointFields(body: Record<string, unknown>, creating: boolean): EndpointFields {
	const errors: Record<string, string[]> = {}
	const out: EndpointFields = {}
	const { url, events, userbot_ids: ids, description, enabled } = body
	if (url === undefined || url === null) {
		if (creating) errors.url = [MESSAGES.required]
	} else if (typeof url !== 'string') errors.url = [MESSAGES.notString]
	else if (url.length > MAX_URL) errors.url = [MESSAGES.maxLength(MAX_URL)]
	else out.url = url.trim()

	if (events !== undefined && events !== null) {
		if (!Array.isArray(events)) errors.events = ['Expected a list of event types.']
		else if (events.length === 0) errors.events = ['Name at least one event type.']
		else if (events.length > MAX_EVENTS) errors.events = [`Name at most ${MAX_EVENTS} event types.`]
		else if (!events.every((e) => typeof e === 'string' && isEventName(e)))
			errors.events = ['Each item must be an update kind of TDLib or an event type of the gateway.']
		else out.events = [...new Set(events as string[])]
	}

	if (ids === null) out.userbotIds = null
	else if (ids !== undefined) {
		if (!Array.isArray(ids)) errors.userbot_ids = ['Expected a list of userbot ids, or null.']
		else if (ids.length > MAX_USERBOTS) errors.userbot_ids = [`Name at most ${MAX_USERBOTS} userbots.`]
		else if (!ids.every((i) => Number.isSafeInteger(i) && (i as number) > 0))
			errors.userbot_ids = ['Each item must be a userbot id.']
		else out.userbotIds = [...new Set(ids as number[])].sort((a, b) => a - b)
	}

	if (description !== undefined && description !== null) {
		if (typeof description !== 'string') errors.description = [MESSAGES.notString]
		else if (description.length > MAX_DESCRIPTION) errors.description = [MESSAGES.maxLength(MAX_DESCRIPTION)]
		else out.description = description
	}

	if (enabled !== undefined && !creating) {
		if (typeof enabled !== 'boolean') errors.enabled = ['Must be a valid boolean.']
		else out.enabled = enabled
	}
	if (Object.keys(errors).length > 0) throw badRequest(errors)
	return out
}

export interface ReplayFields {
	afterSeq?: number
	userbotId?: number
	since?: number
}

export function checkReplayFields(body: Record<string, unknown>): ReplayFields {
	const errors: Record<string, string[]> = {}
	const out: ReplayFields = {}
	const { after_seq: afterSeq, userbot_id: userbotId, since } = body
	if (afterSeq !== undefined && afterSeq !== null) {
		if (!Number.isSafeInteger(afterSeq) || (afterSeq as number) < 0)
			errors.after_seq = ['A valid non-negative integer is required.']
		else out.afterSeq = afterSeq as number
	}
	if (userbotId !== undefined && userbotId !== null) {
		if (!Number.isSafeInteger(userbotId) || (userbotId as number) <= 0)
			errors.userbot_id = ['A valid userbot id is required.']
		else out.userbotId = userbotId as number
	}
	if (since !== undefined && since !== null) {
		const at = typeof since === 'string' && since.length <= 64 ? Date.parse(since) : Number.NaN
		if (Number.isNaN(at)) errors.since = ['Datetime has wrong format. Use ISO 8601.']
		else out.since = at
	}
	if (Object.keys(errors).length > 0) throw badRequest(errors)
	return out
}
