import { retryAfterMs } from './backoff'
import { Deadlines } from './deadlines'
import { readSome, type SigningKeys, signingKeys, telegramTokenOf } from './response'
import { signature } from './secrets'
import type { WebhookConfig } from './settings'
import { cachedLookup, checkUrlForm, type Lookup, pinnedUrl, targetResolverNow, UrlRefused } from './ssrf'
import type { Attempt } from './store'

/** What of a response's body is kept for the deliveries listing. */
const KEPT_BODY_BYTES = 1024
/** How long a host name's resolution is reused (each attempt still checks and pins the address). */
const LOOKUP_TTL_MS = 5_000
/** URLs whose checked form (and pinned forms) a sender keeps at most; past it they are parsed again. */
const URL_CACHE_SIZE = 1000

/** An endpoint URL's form check under `allowHttp`, and the URL pinned to each checked address. */
interface ParsedUrl {
	form: URL | UrlRefused
	allowHttp: boolean
	pinned: Map<string, string>
	/** `fetch`'s TLS option: the name the certificate must carry (the URL connects to an address). */
	tls: { serverName: string } | undefined
}

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
	private readonly resolve: (url: URL) => string | Promise<string>
	/** The attempts' timeouts: one timer for all, one listener per stopping signal. */
	private readonly deadlines = new Deadlines()
	/**
	 * Each endpoint URL's form check (a pure function of the text and the policy), and the URL pinned
	 * to each address it resolved to: parsed once, not at every attempt. The host is still resolved
	 * and every address it answers checked at every attempt.
	 */
	private readonly urls = new Map<string, ParsedUrl>()

	constructor(
		private readonly opts: {
			config: WebhookConfig
			dataKey: string
			lookup: Lookup
			now: () => number
		},
	) {
		this.resolve = targetResolverNow(opts.config, cachedLookup(opts.lookup, LOOKUP_TTL_MS, opts.now))
		this.keys = signingKeys(opts.dataKey)
	}

	/** The attempt's outcome; null when `stopping` aborted it (the event goes back untried). */
	async send(target: Target, event: Outgoing, stopping: AbortSignal): Promise<AttemptResult | null> {
		const { config, now } = this.opts
		const at = now()
		const failed = (error: string) => ({ at, code: null, body: null, error, retryAfter: null })
		const parsed = this.parsed(target.url)
		let address: string
		try {
			if (parsed.form instanceof UrlRefused) throw parsed.form
			// No turn of the event loop when the answer is at hand (an address, a cached name).
			const resolved = this.resolve(parsed.form)
			address = typeof resolved === 'string' ? resolved : await resolved
		} catch (err) {
			if (err instanceof UrlRefused) return failed(`refused: ${err.message}`)
			throw err
		}
		const url = parsed.form
		const key = this.key(target.endpointId, target.secret)
		const secrets = [key instanceof Promise ? await key : key]
		if (target.previousSecret && target.previousSecretUntil !== null && target.previousSecretUntil > at)
			secrets.push(await this.key(target.endpointId, target.previousSecret))
		const seconds = Math.floor(at / 1000)
		// A key's own endpoint (the Bot API face's setWebhook) is sent the Bot API's `Update` as it is.
		const telegram = telegramTokenOf(secrets[0] as Buffer)
		const body =
			telegram === undefined
				? `{"type":${JSON.stringify(event.type)},"timestamp":${JSON.stringify(new Date(event.eventAt).toISOString())},"data":${event.data}}`
				: JSON.stringify((JSON.parse(event.data) as { update?: unknown }).update ?? {})
		let pinned = parsed.pinned.get(address)
		if (pinned === undefined) {
			pinned = pinnedUrl(url, address)
			parsed.pinned.set(address, pinned)
		}
		const signal = this.deadlines.start(stopping, config.timeoutMs)
		try {
			let response: Response
			try {
				response = await fetch(pinned, {
					method: 'POST',
					headers: {
						host: url.host,
						'content-type': 'application/json',
						'user-agent': 'userbot-gateway-webhooks',
						'webhook-id': event.messageId,
						'webhook-timestamp': String(seconds),
						'webhook-signature': signature(secrets, event.messageId, seconds, body),
						...(telegram ? { 'x-telegram-bot-api-secret-token': telegram } : {}),
					},
					body,
					redirect: 'manual',
					signal: signal.signal,
					tls: parsed.tls,
				})
			} catch {
				if (stopping.aborted) return null
				return failed(signal.signal.aborted ? 'timeout' : 'connection failed')
			}
			const kept = await readSome(response, KEPT_BODY_BYTES, signal.signal)
			if (stopping.aborted) return null
			return {
				at,
				code: response.status,
				body: kept,
				error: null,
				retryAfter: retryAfterMs(response.status, response.headers.get('retry-after'), at),
			}
		} finally {
			this.deadlines.done(signal)
		}
	}

	/** An endpoint's signing key: the one opened already without a turn of the event loop. */
	private key(endpointId: number, sealed: string): Buffer | Promise<Buffer> {
		return this.keys.known(endpointId, sealed) ?? this.keys.get(endpointId, sealed)
	}

	/** The URL's checked form, kept (few endpoints, many attempts each). */
	private parsed(raw: string): ParsedUrl {
		const allowHttp = this.opts.config.allowHttp
		let known = this.urls.get(raw)
		if (known === undefined || known.allowHttp !== allowHttp) {
			let form: URL | UrlRefused
			try {
				form = checkUrlForm(raw, this.opts.config)
			} catch (err) {
				if (!(err instanceof UrlRefused)) throw err
				form = err
			}
			const tls =
				form instanceof URL && form.protocol === 'https:' ? { serverName: form.hostname } : undefined
			known = { form, allowHttp, pinned: new Map(), tls }
			if (this.urls.size >= URL_CACHE_SIZE) this.urls.clear()
			this.urls.set(raw, known)
		}
		return known
	}
}
