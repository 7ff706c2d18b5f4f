import type { ReplayFields } from './bodies'
import type { WebhookConfig } from './settings'

/** One event as it is stored once, before any delivery of it is tried. */
export interface NewEvent {
	companyId: number
	userbotId: number
	seq: number
	type: string
	/** The body's `data`, serialized. */
	data: string
	dedupeKey: string
	at: number
}

/** An event to store, with the endpoints that want it. */
export interface EventRow {
	event: NewEvent
	endpointIds: readonly number[]
}

/** One delivery as `GET /api/webhooks/{id}/deliveries/` answers it. */
export interface DeliveryView {
	id: number
	event_id: number
	message_id: string
	type: string
	userbot_id: number
	seq: number
	status: string
	attempts: number
	next_attempt_at: string | null
	last_attempt_at: string | null
	last_response_code: number | null
	last_response_body: string | null
	last_error: string | null
	created_at: string | null
}

/** The routes' view of the stored events: the listing, the test event, replays. */
/**
 * The userbots the caller reaches (docs/policy.md): the deliveries and replays of only those (and the
 * endpoint's test events), whatever the endpoint named before; null: every userbot of the company.
 */
export type Reach = readonly number[] | null

export interface OutboxHistory {
	deliveries(
		endpointId: number,
		opts: { limit: number; beforeId?: number; status?: string; reach: Reach },
	): Promise<DeliveryView[]>
	test(companyId: number, endpointId: number): Promise<{ event_id: number | null; message_id: string }>
	replay(
		endpointId: number,
		fields: ReplayFields,
		reach: Reach,
	): Promise<{ replayed: number; truncated: boolean }>
}

/** Whether an event of `userbotId` is within the caller's reach (a test event, of userbot 0, always is). */
export const withinReach = (reach: Reach, userbotId: number) =>
	reach === null || userbotId === 0 || reach.includes(userbotId)

/**
 * Where events wait for their deliveries, and what sends them: the database (store.ts, deliver.ts,
 * history.ts) or, on a bus, JetStream (jetstream/). Both store an event before any delivery is
 * tried, deliver it at least once and in order per endpoint and userbot, retry it with backoff,
 * keep it when it failed, and replay it.
 */
export interface Outbox {
	readonly kind: 'database' | 'jetstream'
	readonly history: OutboxHistory
	/**
	 * Stores the events, in the order given (one userbot's order is its deliveries' order), and sees
	 * to their sending.
	 */
	recordMany(rows: readonly EventRow[]): Promise<void>
	/** Something may be due now (a replay, a test, a change of an endpoint). */
	kick(): void
	start(): void
	/** Stops sending: attempts under way are given back untried. */
	close(): Promise<void>
}

/**
 * **Decision** (docs/webhooks.md#the-outbox-on-a-bus): `WEBHOOK_OUTBOX=auto` keeps the outbox in
 * JetStream when the gateway runs on a bus and in the database otherwise; `database` keeps it in the
 * database even on a bus; `jetstream` requires the bus (the configuration refuses it without).
 */
export function outboxKind(config: Pick<WebhookConfig, 'outbox'>, onBus: boolean): 'database' | 'jetstream' {
	if (config.outbox === 'database') return 'database'
	if (config.outbox === 'jetstream') return 'jetstream'
	return onBus ? 'jetstream' : 'database'
}

/**
 * The outbox in the database: its deliverer stores the events (the deliveries it can send at once
 * leased to it already, deliver.ts) and sends them; its history lists and replays them.
 */
export function databaseOutbox(parts: {
	deliverer: {
		record(rows: readonly EventRow[]): Promise<void>
		kick(): void
		start(): void
		close(): Promise<void>
	}
	history: OutboxHistory
}): Outbox {
	const { deliverer, history } = parts
	return {
		kind: 'database',
		history,
		recordMany: (rows) => deliverer.record(rows),
		kick: () => deliverer.kick(),
		start: () => deliverer.start(),
		close: () => deliverer.close(),
	}
}
