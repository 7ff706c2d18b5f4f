import { retryAfterMs } from './backoff'
import { readSome, type SigningKeys, signingKeys } from './response'
import { signatureHeader } from './secrets'
import type { WebhookConfig } from './settings'
import { cachedLookup, checkUrlForm, type Lookup, pinnedUrl, resolveTarget, UrlRefused } from './ssrf'
import type { Attempt } from './store'

/** What of a response's body is kept for the deliveries listing. */
const KEPT_BODY_BYTES = 1024
/** How long a host name's resolution is reused (each attempt still checks and pins the address). */
const LOOKUP_TTL_MS = 5_000

/** Where an event goes: the endpoint as its row has it (secrets sealed). */
export interface Target {
	endpointId: number
	url: string
	secret: string
	previousSecret: string | null
	previousSecretUntil: number | null
}

/** The event one attempt sends. */
export interface Outgoing {
	messageId: string
	type: string
	/** When the event was stored (the body's `timestamp`). */
	eventAt: number
	/** The body's `data`, serialized. */
	data: string
}

export type AttemptResult = Attempt & { retryAfter: number | null }

export const isDelivered = (r: Attempt): boolean => r.code !== null && r.code >= 200 && r.code < 300

/**
 * One signed attempt (Standard Webhooks), with the SSRF rules of docs/webhooks.md: the URL's form
 * and every address it resolves to are checked, and the request goes to the address checked.
 * Both outboxes send with it: the database's (deliver.ts) and JetStream's (jetstream/).
 */
export class Sender {
	private readonly keys: SigningKeys
	private readonly lookup: Lookup

	constructor(
		private readonly opts: {
			config: WebhookConfig
			dataKey: string
			lookup: Lookup
			now: () => number
		},
	) {
		this.lookup = cachedLookup(opts.lookup, LOOKUP_TTL_MS, opts.now)
		this.keys = signingKeys(opts.dataKey)
	}

	/** The attempt's outcome; null when `stopping` aborted it (the event goes back untried). */
	async send(target: Target, event: Outgoing, stopping: AbortSignal): Promise<AttemptResult | null> {
		const { config, now } = this.opts
		const at = now()
		const failed = (error: string) => ({ at, code: null, body: null, error, retryAfter: null })
		let url: URL
		let address: string
		try {
			url = checkUrlForm(target.url, config)
			address = await resolveTarget(url, config, this.lookup)
		} catch (err) {
			if (err instanceof UrlRefused) return failed(`refused: ${err.message}`)
			throw err
		}
		const secrets = [await this.keys.get(target.endpointId, target.secret)]
		if (target.previousSecret && target.previousSecretUntil !== null && target.previousSecretUntil > at)
			secrets.push(await this.keys.get(target.endpointId, target.previousSecret))
		const body = `{"type":${JSON.stringify(event.type)},"timestamp":${JSON.stringify(new Date(event.eventAt).toISOString())},"data":${event.data}}`
		const signal = AbortSignal.any([stopping, AbortSignal.timeout(config.timeoutMs)])
		let response: Response
		try {
			response = await fetch(pinnedUrl(url, address), {
				method: 'POST',
				headers: {
					host: url.host,
					'content-type': 'application/json',
					'user-agent': 'userbot-gateway-webhooks',
					'webhook-id': event.messageId,
					'webhook-timestamp': String(Math.floor(at / 1000)),
					'webhook-signature': signatureHeader(secrets, event.messageId, new Date(at), body),
				},
				body,
				redirect: 'manual',
				signal,
				...(url.protocol === 'https:' ? { tls: { serverName: url.hostname } } : {}),
			})
		} catch {
			if (stopping.aborted) return null
			return failed(signal.aborted ? 'timeout' : 'connection failed')
		}
		const kept = await readSome(response, KEPT_BODY_BYTES, signal)
		if (stopping.aborted) return null
		return {
			at,
			code: response.status,
			body: kept,
			error: null,
			retryAfter: retryAfterMs(response.status, response.headers.get('retry-after'), at),
		}
	}
}
