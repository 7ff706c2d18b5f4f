/**
 * Webhooks (docs/webhooks.md): a company's own server gets its userbots' events as signed HTTP
 * requests (Standard Webhooks), durably: each event is stored in the outbox before any delivery,
 * delivered at least once and in order per endpoint and userbot, retried with backoff, kept when it
 * failed, and replayable. The events come from the update hub (every numbered update, whatever its
 * kind, and the events beside the stream: `command.result`, `userbot.state`).
 */

import { definePlugin, type PluginDefinition } from 'userbot-gateway/plugin'
import { webhooksApi } from './api'
import { Deliverer } from './deliver'
import { Endpoints } from './endpoints'
import { History } from './history'
import { logWebhookFailure } from './log-failure'
import { webhookRoutes } from './routes'
import { EventSource, wantedKinds } from './source'
import { defaultLookup, type Lookup } from './ssrf'
import { WebhookStore } from './store'

export interface WebhooksPluginOptions {
	/** The clock of events, attempts and backoff (tests move it instead of waiting). */
	now?: () => number
	/** The jitter's random numbers in [0, 1). */
	random?: () => number
	/** Host name resolution (tests answer for names without a resolver). */
	lookup?: Lookup
}

export function createWebhooksPlugin(opts: WebhooksPluginOptions = {}): PluginDefinition {
	return definePlugin({
		id: 'webhooks',
		api: webhooksApi,
		build(ctx) {
			const now = opts.now ?? Date.now
			const lookup = opts.lookup ?? defaultLookup
			const config = ctx.config.webhooks
			const store = new WebhookStore(ctx.db)
			const deliverer = new Deliverer({
				store,
				config,
				dataKey: ctx.config.secrets.dataKey,
				log: ctx.log,
				now,
				random: opts.random ?? Math.random,
				lookup,
				onDisabled(companyId, endpointId) {
					ctx.log.warn('webhook endpoint disabled: it failed for too long', { companyId, endpointId })
					ctx.publish({
						companyId,
						message: {
							type: 'chat_update',
							payload: { type: 'webhook_disabled', result: { webhook_id: endpointId } },
						},
					})
				},
			})
			const kick = () => deliverer.kick()
			const source = new EventSource({ ctx, store, now, cacheMs: config.pollMs, kick })
			// The TDLib kinds endpoints want reach the hub whether or not a socket subscribes to them.
			const refreshKinds = () =>
				wantedKinds(ctx.db).then(
					(kinds) => ctx.updates.want(source, kinds),
					(err: unknown) => logWebhookFailure(ctx.log, 'reading the kinds webhooks want', err),
				)
			const endpoints = new Endpoints({
				ctx,
				lookup,
				now,
				changed(companyId) {
					source.invalidate(companyId)
					void refreshKinds()
				},
			})
			const history = new History(ctx.db, store, now)
			const stopObserving = ctx.updates.observe((event) => source.handle(event))
			// Authorization states, as the userbots' own followers see them, become `userbot.state`.
			const stopStates = ctx.runtime?.onEvent((event) => {
				if (event.type === 'authorization_state')
					ctx.updates.emit(event.userbotId, 'userbot.state', { authorization_state: event.state })
			})
			const kindsTimer = setInterval(() => void refreshKinds(), Math.max(config.pollMs * 10, 1000))
			void refreshKinds()
			deliverer.start()
			ctx.onClose(async () => {
				clearInterval(kindsTimer)
				stopObserving()
				stopStates?.()
				await source.close()
				await deliverer.close()
			})
			return webhookRoutes(ctx, endpoints, history, kick)
		},
	})
}

export const webhooksPlugin = createWebhooksPlugin()
