import * as v from 'valibot'

/**
 * The names of the JetStream outbox and the shapes of what it stores. Everything read back from the
 * stream or the bucket is sealed (src/runtime/bus/seal.ts, the subject or key bound to it) and then checked
 * whole against these schemas before use: a message that fails either is refused, never sent.
 */
export const WEBHOOKS_STREAM = 'UBG_WEBHOOKS'
export const OUTCOMES_BUCKET = 'ubg-webhooks'
const PREFIX = 'ubg.wh'

/** Every endpoint's events of one userbot go under `ubg.wh.<endpoint>.<userbot>` (0: the test event). */
export const pairSubject = (endpointId: number, userbotId: number) => `${PREFIX}.${endpointId}.${userbotId}`
export const endpointSubjects = (endpointId: number) => `${PREFIX}.${endpointId}.*`
export const STREAM_SUBJECTS = `${PREFIX}.*.*`
/** The durable consumer of one endpoint and userbot. */
export const consumerName = (endpointId: number, userbotId: number) => `wh_${endpointId}_${userbotId}`
/** The outcome of one stored message (its stream sequence) for its endpoint. */
export const outcomeKey = (endpointId: number, streamSeq: number) => `${endpointId}.${streamSeq}`

/** The endpoint and userbot a consumer's name or a subject stands for. */
export function pairOf(name: string): { endpointId: number; userbotId: number } | undefined {
	const m = /^(?:wh_(\d{1,15})_(\d{1,15})|ubg\.wh\.(\d{1,15})\.(\d{1,15}))$/.exec(name)
	if (!m) return undefined
	const endpointId = Number(m[1] ?? m[3])
	const userbotId = Number(m[2] ?? m[4])
	return Number.isSafeInteger(endpointId) && Number.isSafeInteger(userbotId)
		? { endpointId, userbotId }
		: undefined
}

const id = v.pipe(v.number(), v.safeInteger(), v.minValue(0))
const time = v.pipe(v.number(), v.safeInteger(), v.minValue(0))
const text = (max: number) => v.pipe(v.string(), v.maxLength(max))

/** One event for one endpoint, as the stream holds it. */
export const StoredEvent = v.strictObject({
	endpoint_id: id,
	company_id: id,
	userbot_id: id,
	seq: id,
	type: v.pipe(text(100), v.regex(/^[A-Za-z][A-Za-z.]*$/)),
	/** The body's `data`, serialized JSON (checked to parse). */
	data: v.pipe(
		text(16 * 1024 * 1024),
		v.check((s) => {
			try {
				return typeof JSON.parse(s) === 'object'
			} catch {
				return false
			}
		}),
	),
	at: time,
	message_id: v.pipe(text(64), v.regex(/^msg_[A-Za-z0-9_-]+$/)),
	/** The stream sequence this is a replay of (replays are not replayed again). */
	replay_of: v.optional(id),
})
export type StoredEvent = v.InferOutput<typeof StoredEvent>

/** The latest attempt's outcome of one stored message, as the bucket holds it. */
export const StoredOutcome = v.strictObject({
	status: v.picklist(['pending', 'delivered', 'failed']),
	attempts: id,
	first_at: time,
	last_at: time,
	next_at: v.nullable(time),
	code: v.nullable(v.pipe(v.number(), v.safeInteger(), v.minValue(0), v.maxValue(999))),
	body: v.nullable(text(4096)),
	error: v.nullable(text(200)),
	type: v.pipe(text(100), v.regex(/^[A-Za-z][A-Za-z.]*$/)),
	userbot_id: id,
	seq: id,
	message_id: v.pipe(text(64), v.regex(/^msg_[A-Za-z0-9_-]+$/)),
	created_at: time,
})
export type StoredOutcome = v.InferOutput<typeof StoredOutcome>

export const parseEvent = (value: unknown): StoredEvent | undefined => {
	const r = v.safeParse(StoredEvent, value)
	return r.success ? r.output : undefined
}

export const parseOutcome = (value: unknown): StoredOutcome | undefined => {
	const r = v.safeParse(StoredOutcome, value)
	return r.success ? r.output : undefined
}

/**
 * The `webhook-id` of an event: the same whichever gateway stores it, for the same key (a live
 * update's userbot and `seq` on the bus), and the same for every endpoint, retry and replay.
 */
export async function messageIdOf(dedupeKey: string): Promise<string> {
	const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(dedupeKey)))
	return `msg_${Buffer.from(digest.subarray(0, 18)).toString('base64url')}`
}
