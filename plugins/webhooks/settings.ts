import { definePluginSettings, type SettingsValues, setting, settingTypes } from 'userbot-gateway/plugin'
import * as v from 'valibot'

const { int, bool, allowedHosts } = settingTypes

/**
 * The webhooks' settings (docs/configuration.md), read from the environment when the plugin
 * loads; `webhooks({ ... })` given in code overrides them.
 */
export const WEBHOOK_SETTINGS = definePluginSettings(
	{
		/** Milliseconds a receiver may take to answer one delivery before it counts as failed. */
		timeoutMs: setting('WEBHOOK_TIMEOUT', v.optional(int(100, 300_000), '10000')),
		/** Allow `http://` endpoint URLs (default: https only). */
		allowHttp: setting('WEBHOOK_ALLOW_HTTP', v.optional(bool, 'false')),
		/** Host names (lower case), addresses and CIDRs an endpoint may reach although they are internal. */
		allowedHosts: setting('WEBHOOK_ALLOWED_HOSTS', v.optional(allowedHosts, '')),
		/** Milliseconds: the first retry's backoff (full jitter), doubling up to WEBHOOK_RETRY_CAP. */
		retryBaseMs: setting('WEBHOOK_RETRY_BASE', v.optional(int(1, 3_600_000), '5000')),
		retryCapMs: setting('WEBHOOK_RETRY_CAP', v.optional(int(1, 86_400_000), '3600000')),
		/** Milliseconds a delivery is retried before it is marked failed (kept as a dead letter). */
		retryForMs: setting('WEBHOOK_RETRY_FOR', v.optional(int(1, 30 * 86_400_000), '86400000')),
		/** Milliseconds an endpoint may fail without one success before it is disabled. */
		disableAfterMs: setting('WEBHOOK_DISABLE_AFTER', v.optional(int(1, 30 * 86_400_000), '86400000')),
		/** Milliseconds between looks for due deliveries (other gateways' events, retries). */
		pollMs: setting('WEBHOOK_POLL', v.optional(int(5, 60_000), '1000')),
		/** Where the outbox lives: `auto` (JetStream with BUS_URL, else the database), `database`, `jetstream`. */
		outbox: setting(
			'WEBHOOK_OUTBOX',
			v.optional(
				v.picklist(['auto', 'database', 'jetstream'], 'must be auto, database or jetstream'),
				'auto',
			),
		),
		/** Bytes the JetStream outbox may hold; when full, new events are refused (logged), none dropped. */
		jsMaxBytes: setting(
			'WEBHOOK_JS_MAX_BYTES',
			v.optional(int(1_048_576, Number.MAX_SAFE_INTEGER), '1073741824'),
		),
		/** Milliseconds an event stays in the JetStream outbox (replays, listing); above WEBHOOK_RETRY_FOR. */
		jsMaxAgeMs: setting('WEBHOOK_JS_MAX_AGE', v.optional(int(60_000, 365 * 86_400_000), '604800000')),
	},
	(s, core) => {
		if (s.outbox === 'jetstream' && core.bus === undefined)
			return 'WEBHOOK_OUTBOX: jetstream needs BUS_URL (the outbox lives on the bus)'
		if (core.bus !== undefined && s.outbox !== 'database' && s.jsMaxAgeMs <= s.retryForMs)
			return 'WEBHOOK_JS_MAX_AGE: must be longer than WEBHOOK_RETRY_FOR (events wait that long)'
		return null
	},
)

/** The webhooks' settings as the plugin reads them. */
export type WebhookConfig = SettingsValues<typeof WEBHOOK_SETTINGS>
