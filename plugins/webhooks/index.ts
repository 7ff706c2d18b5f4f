/**
 * Webhooks (docs/webhooks.md): a company's own server gets its userbots' events as signed HTTP
 * requests (Standard Webhooks), durably: each event is stored in the outbox before any delivery,
 * delivered at least once and in order per endpoint and userbot, retried with backoff, kept when it
 * failed, and replayable. The events come from the update hub (every numbered update, whatever its
 * kind, and the events beside the stream: `command.result`, `userbot.state`).
 */

import { type AppContext, definePlugin, type SettingsOptions, successEvent } from 'userbot-gateway/plugin'
import { webhooksApi } from './api'
import { Deliverer } from './deliver'
import { Endpoints, endpointForDelivery } from './endpoints'
import { History } from './history'
import { type DeliveryEndpoint, JetStreamOutbox } from './jetstream'
import { keyEndpoints } from './key-endpoints'
import { logWebhookFailure } from './log-failure'
import { databaseOutbox, type Outbox, outboxKind } from './outbox'
import { webhookRoutes } from './routes'
import { WEBHOOK_SETTINGS, type WebhookConfig } from './settings'
import { EventSource, wantedKinds } from './source'
import { defaultLookup, type Lookup } from './ssrf'
import { WebhookStore } from './store'
import { embeddedPath, OutboxWriter } from './writer'

/**
 * How long the writer thread waits for the app's connection to let go of the write lock. Longer than
 * the app's own 5 s: the wait blocks only that thread (the events wait, the event loop does not),
 * and a write that gave up would leave its events unstored, where the event loop's own writes would
 * have queued behind the transaction.
 */
const WRITER_BUSY_MS = 60_000

/** The settings (WEBHOOK_*, ./settings.ts) over the environment, and the plugin's seams for tests. */
export interface WebhooksPluginOptions extends SettingsOptions<typeof WEBHOOK_SETTINGS.shape> {
	/** The clock of events, attempts and backoff (tests move it instead of waiting). */
	now?: () => number
	/** The jitter's random numbers in [0, 1). */
	random?: () => number
	/** Host name resolution (tests answer for names without a resolver). */
	lookup?: Lookup
}

export function webhooks(opts: WebhooksPluginOptions = {}) {
	const { now: clock, random: dice, lookup: resolver, ...options } = opts
	return definePlugin({
		id: 'webhooks',
		api: webhooksApi,
		settings: WEBHOOK_SETTINGS,
		options,
		async build(ctx, config) {
			const now = clock ?? Date.now
			const lookup = resolver ?? defaultLookup
			// The outbox's writes go to a thread of their own on the embedded database (writer.ts).
			const path = embeddedPath(ctx.config.databaseUrl)
			const store = new WebhookStore(
				ctx.db,
				path === null ? undefined : new OutboxWriter(path, WRITER_BUSY_MS, ctx.log),
			)
			const onDisabled = (companyId: number, endpointId: number) => {
				ctx.log.warn('webhook endpoint disabled: it failed for too long', { companyId, endpointId })
				ctx.publish({
					companyId,
					message: successEvent(null, 'webhook_disabled', { webhook_id: endpointId }),
				})
			}
			const random = dice ?? Math.random
			const outbox = await makeOutbox(ctx, { config, store, now, random, lookup, onDisabled })
			const kick = () => outbox.kick()
			const source = new EventSource({ ctx, store: outbox, now, cacheMs: config.pollMs })
			// The TDLib kinds endpoints want reach the hub whether or not a socket subscribes to them.
			const refreshKinds = () =>
				wantedKinds(ctx.db).then(
					(kinds) => ctx.updates.want(source, kinds),
					(err: unknown) => logWebhookFailure(ctx.log, 'reading the kinds webhooks want', err),
				)
			const endpoints = new Endpoints({
				ctx,
				policy: config,
				lookup,
				now,
				changed(companyId) {
					source.invalidate(companyId)
					void refreshKinds()
				},
			})
			// The endpoints API keys make for themselves (the Bot API face's setWebhook): key-endpoints.ts.
			ctx.registerKeyWebhooks(
				keyEndpoints({
					ctx,
					policy: config,
					lookup,
					now,
					changed(companyId) {
						source.invalidate(companyId)
						kick()
					},
				}),
			)
			const stopObserving = ctx.updates.observe((event) => source.handle(event))
			// Authorization states, as the userbots' own followers see them, become `userbot.state`.
			const stopStates = ctx.runtime?.onEvent((event) => {
				if (event.type === 'authorization_state')
					ctx.updates.emit(event.userbotId, 'userbot.state', { authorization_state: event.state })
			})
			const kindsTimer = setInterval(() => void refreshKinds(), Math.max(config.pollMs * 10, 1000))
			void refreshKinds()
			outbox.start()
			ctx.onClose(async () => {
				clearInterval(kindsTimer)
				stopObserving()
				stopStates?.()
				await source.close()
				await outbox.close()
				await store.close()
			})
			return webhookRoutes(ctx, endpoints, outbox.history, kick)
		},
	})
}

interface OutboxParts {
	config: WebhookConfig
	store: WebhookStore
	now: () => number
	random: () => number
	lookup: Lookup
	onDisabled(companyId: number, endpointId: number): void
}

/** The outbox WEBHOOK_OUTBOX and the bus call for (outbox.ts): JetStream's, or the database's. */
async function makeOutbox(ctx: AppContext, parts: OutboxParts): Promise<Outbox> {
	const { config, store, now, random, lookup, onDisabled } = parts
	const dataKey = ctx.config.secrets.dataKey
	if (ctx.bus && outboxKind(config, true) === 'jetstream') {
		const endpoints = new Map<number, { at: number; endpoint: DeliveryEndpoint | null }>()
		return JetStreamOutbox.open({
			bus: ctx.bus,
			config,
			dataKey,
			log: ctx.log,
			now,
			random,
			lookup,
			endpoint: async (id) => {
				// Each pull reads its endpoint: a change made on any gateway counts within WEBHOOK_POLL.
				const hit = endpoints.get(id)
				if (hit && now() - hit.at < config.pollMs) return hit.endpoint
				const endpoint = deliveryEndpoint(await endpointForDelivery(ctx.db, id))
				if (endpoints.size > 10_000) endpoints.clear()
				endpoints.set(id, { at: now(), endpoint })
				return endpoint
			},
			succeeded: (id) => store.endpointSucceeded(id),
			async failed(id, at) {
				const disabled = await store.endpointFailed(id, at, now() - config.disableAfterMs)
				if (disabled !== null) onDisabled(disabled, id)
			},
		})
	}
	const deliverer = new Deliverer({ store, config, dataKey, log: ctx.log, now, random, lookup, onDisabled })
	return databaseOutbox({ deliverer, history: new History(ctx.db, store, now) })
}

/** An endpoint's row as the JetStream outbox's deliveries need it. */
function deliveryEndpoint(row: Awaited<ReturnType<typeof endpointForDelivery>>): DeliveryEndpoint | null {
	if (!row) return null
	return {
		endpointId: row.id,
		companyId: row.companyId,
		url: row.url,
		secret: row.secret,
		previousSecret: row.previousSecret,
		previousSecretUntil: row.previousSecretUntil,
		enabled: row.enabled,
		failingSince: row.failingSince,
	}
}
