import { and, eq } from 'drizzle-orm'
import {
	type AppContext,
	type EventFacets,
	type EventFilter,
	facetsOf,
	KEY_WEBHOOK_EVENT,
	NO_FACETS,
	type ObservedEvent,
	parseFilter,
	passes,
} from 'userbot-gateway/plugin'
import { isTdUpdate } from './kinds'
import { logWebhookFailure } from './log-failure'
import type { EventRow, NewEvent } from './outbox'
import { webhookEndpoint } from './tables'

/** Events stored in one write at most. */
const WRITE_SLICE = 256

interface EndpointFilter {
	id: number
	events: ReadonlySet<string>
	userbotIds: ReadonlySet<number> | null
	/** Its event filter (docs/webhooks.md#filters); undefined: every event of its kinds. */
	filter: EventFilter | undefined
	/** An API key's own endpoint (key-endpoints.ts): only the events whose `data.key_id` is it. */
	keyId: number | null
}

export interface EventSourceOptions {
	ctx: AppContext
	/** Where events are stored: the database's outbox or JetStream's (outbox.ts). */
	store: { recordMany(rows: readonly EventRow[]): Promise<void> }
	now: () => number
	/** How long a company's endpoints are taken as known (another gateway may change them). */
	cacheMs: number
}

/**
 * Turns the update hub's events (every numbered update, whatever its kind, and the events beside the
 * stream) into stored events with a pending delivery per endpoint that wants them. One userbot's
 * events are stored in the order they came (all those of one turn in one write), so their outbox
 * order is their order. Without the bus the
 * numbers start again at each start: the event's key then carries this start's own mark. With the
 * bus every gateway sees every update under the shard's number: the key is the userbot and number,
 * so the event is stored once whichever gateway stores it first.
 */
export class EventSource {
	private readonly cache = new Map<number, { at: number; endpoints: EndpointFilter[] }>()
	private readonly epoch = crypto.randomUUID()
	private closed = false
	/** Events seen and not yet stored, in arrival order; stored together once per turn. */
	private waiting: ObservedEvent[] = []
	/** The store of the previous turn's events: each turn's waits for it (their order is kept). */
	private tail: Promise<void> = Promise.resolve()

	constructor(private readonly opts: EventSourceOptions) {}

	handle(event: ObservedEvent): void {
		if (this.closed) return
		this.waiting.push(event)
		if (this.waiting.length > 1) return
		const flush = () => this.flush()
		this.tail = this.tail.then(() => new Promise<void>((resolve) => setImmediate(resolve))).then(flush)
	}

	/** Forgets what it knew of a company's endpoints (one was made, changed or deleted here). */
	invalidate(companyId: number): void {
		this.cache.delete(companyId)
	}

	/** Stops taking events and waits for those being stored. */
	async close(): Promise<void> {
		this.closed = true
		await this.tail
	}

	private async flush(): Promise<void> {
		const events = this.waiting
		this.waiting = []
		try {
			// Each userbot and each company of the batch looked up once, not once per event (a
			// promise and a turn of the microtask queue each); then the rows are made in one pass.
			const records = new Map<number, { companyId: number } | null>()
			for (const event of events)
				if (!records.has(event.userbotId))
					records.set(event.userbotId, await this.opts.ctx.userbots.lookup(event.userbotId))
			const filters = new Map<number, EndpointFilter[]>()
			for (const record of records.values())
				if (record && !filters.has(record.companyId))
					filters.set(record.companyId, await this.endpointsOf(record.companyId))
			const rows: Array<{ event: NewEvent; endpointIds: number[] }> = []
			for (const event of events) {
				const record = records.get(event.userbotId)
				if (!record) continue
				const row = this.prepare(event, record.companyId, filters.get(record.companyId) ?? [])
				if (row) rows.push(row)
			}
			// In slices, each sent on as soon as it is stored: a burst's first events go out while
			// the rest are still being written, not after all of them.
			for (let i = 0; i < rows.length; i += WRITE_SLICE) {
				if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve))
				await this.opts.store.recordMany(rows.slice(i, i + WRITE_SLICE))
			}
		} catch (err) {
			// With the database down they are not stored: a limit written in docs/webhooks.md.
			logWebhookFailure(this.opts.ctx.log, `storing ${events.length} webhook events`, err)
		}
	}

	/** The event to store, with the endpoints of its company (`all`) that want it; null when none does. */
	private prepare(
		event: ObservedEvent,
		companyId: number,
		all: readonly EndpointFilter[],
	): { event: NewEvent; endpointIds: number[] } | null {
		// What a filter looks at, read once for all the endpoints, and only when one has a filter. The
		// gateway's own events (not numbered updates) carry none of it (docs/webhooks.md#filters).
		let facets: EventFacets | undefined
		const facetsNow = () => {
			facets ??= event.live ? facetsOf(event.data) : NO_FACETS
			return facets
		}
		const endpoints = all.filter(
			(e) =>
				e.events.has(event.kind) &&
				(e.userbotIds === null || e.userbotIds.has(event.userbotId)) &&
				(e.filter === undefined || passes(e.filter, facetsNow())) &&
				(e.keyId === null || event.data.key_id === e.keyId),
		)
		if (endpoints.length === 0) return null
		// One `JSON.stringify` of the whole, not a template around the update's: a string pieced
		// together is copied flat when it is handed to the writer thread, which cost more than this.
		const data = event.live
			? JSON.stringify({ userbot_id: event.userbotId, seq: event.seq, update: event.data })
			: JSON.stringify({ userbot_id: event.userbotId, seq: event.seq, ...event.data })
		// A key's update (the Bot API face) is made on every gateway that sees the update: once per key and number.
		const keyed =
			event.kind === KEY_WEBHOOK_EVENT
				? `k:${event.data.key_id}:${(event.data.update as { update_id?: unknown } | undefined)?.update_id}`
				: null
		const dedupeKey =
			this.opts.ctx.config.bus && (event.live || keyed)
				? (keyed ?? `u:${event.userbotId}:${event.seq}`)
				: `${this.epoch}:${event.live ? `u:${event.userbotId}:${event.seq}` : (keyed ?? crypto.randomUUID())}`
		return {
			event: {
				companyId,
				userbotId: event.userbotId,
				seq: event.seq,
				type: event.kind,
				data,
				dedupeKey,
				at: this.opts.now(),
			},
			endpointIds: endpoints.map((e) => e.id),
		}
	}

	private async endpointsOf(companyId: number): Promise<EndpointFilter[]> {
		const now = this.opts.now()
		const cached = this.cache.get(companyId)
		if (cached && now - cached.at < this.opts.cacheMs) return cached.endpoints
		const rows = await this.opts.ctx.db
			.select({
				id: webhookEndpoint.id,
				events: webhookEndpoint.events,
				userbotIds: webhookEndpoint.userbotIds,
				filter: webhookEndpoint.filter,
				keyId: webhookEndpoint.keyId,
			})
			.from(webhookEndpoint)
			.where(and(eq(webhookEndpoint.companyId, companyId), eq(webhookEndpoint.enabled, true)))
		const endpoints: EndpointFilter[] = []
		for (const r of rows) {
			const filter = r.filter === null ? null : parseFilter(JSON.parse(r.filter))
			if (filter && !filter.ok) {
				// Checked when it was written: only a rule made stricter since refuses it. Nothing is
				// sent rather than more than its owner asked for, and the log says why.
				this.opts.ctx.log.warn('webhook endpoint skipped: its stored filter is refused', {
					companyId,
					endpointId: r.id,
					error: filter.error,
				})
				continue
			}
			endpoints.push({
				id: r.id,
				events: new Set(JSON.parse(r.events) as string[]),
				userbotIds: r.userbotIds === null ? null : new Set(JSON.parse(r.userbotIds) as number[]),
				filter: filter?.filter,
				keyId: r.keyId,
			})
		}
		this.cache.set(companyId, { at: now, endpoints })
		return endpoints
	}
}

/** The TDLib update kinds enabled endpoints want: forwarded by the supervisor whether subscribed or not. */
export async function wantedKinds(db: AppContext['db']): Promise<string[]> {
	const rows = await db
		.select({ events: webhookEndpoint.events })
		.from(webhookEndpoint)
		.where(eq(webhookEndpoint.enabled, true))
	const kinds = new Set<string>()
	for (const r of rows) for (const k of JSON.parse(r.events) as string[]) if (isTdUpdate(k)) kinds.add(k)
	return [...kinds].sort()
}
