import { TELEGRAM_SHAPE } from './key-endpoints'
import { openSecret, signingKey } from './secrets'

/**
 * What both senders of a delivery share (the database outbox's deliver.ts and the JetStream outbox's
 * attempt.ts): the opened signing keys, and the part of a receiver's answer that is kept.
 */

export interface SigningKeys {
	/** The signing key of an endpoint's sealed secret. */
	get(endpointId: number, sealed: string): Promise<Buffer>
	/** The key `get` opened already for this endpoint and sealed text (no promise, no turn), if any. */
	known(endpointId: number, sealed: string): Buffer | undefined
}

/**
 * The secret token of a key's own endpoint (key-endpoints.ts: its sealed secret is `tgbot:` and the
 * token), by the key `get` made of it: such an endpoint is sent the Bot API's body and header.
 */
const telegramTokens = new WeakMap<Buffer, string>()
export const telegramTokenOf = (key: Buffer): string | undefined => telegramTokens.get(key)

/** Endpoints whose keys are kept at most; past it they are opened again. */
const KEYS_KEPT = 10_000

/**
 * Signing keys opened and decoded once, not at every attempt; kept by endpoint, then by sealed text,
 * so a sealed secret copied onto another endpoint's row still does not open. (Keyed by the endpoint
 * first, not by one string of both: building and hashing that string at every attempt cost more than
 * signing.)
 */
export function signingKeys(dataKey: string): SigningKeys {
	const keys = new Map<number, Map<string, Buffer>>()
	const known = (endpointId: number, sealed: string) => keys.get(endpointId)?.get(sealed)
	return {
		known,
		async get(endpointId, sealed) {
			let key = known(endpointId, sealed)
			if (key === undefined) {
				const secret = await openSecret(dataKey, endpointId, sealed)
				key = signingKey(secret)
				if (secret.startsWith(TELEGRAM_SHAPE)) telegramTokens.set(key, secret.slice(TELEGRAM_SHAPE.length))
				if (keys.size >= KEYS_KEPT) keys.clear()
				let ofEndpoint = keys.get(endpointId)
				if (ofEndpoint === undefined) {
					ofEndpoint = new Map()
					keys.set(endpointId, ofEndpoint)
				}
				// A rotation leaves two sealed texts in use; more are old ones (secrets rotated since).
				if (ofEndpoint.size >= 4) ofEndpoint.clear()
				ofEndpoint.set(sealed, key)
			}
			return key
		},
	}
}

/** At most `max` bytes of the body as text (then the rest is not read); null when there is none. */
export async function readSome(response: Response, max: number, signal: AbortSignal): Promise<string | null> {
	// A short body said to be short is read whole (the common case), without asking for `body`: that
	// getter makes a ReadableStream, whose reading cost more than the request. Any other is read up
	// to `max`.
	const length = Number(response.headers.get('content-length') ?? Number.NaN)
	if (length <= max) {
		const text = await response.text().catch(() => '')
		return text === '' ? null : text.slice(0, max)
	}
	const stream = response.body
	if (!stream) return null
	const reader = stream.getReader()
	const chunks: Uint8Array[] = []
	let size = 0
	try {
		while (size < max && !signal.aborted) {
			const { done, value } = await reader.read()
			if (done) break
			chunks.push(value)
			size += value.byteLength
		}
	} catch {
		// A body cut off is kept as far as it came.
	} finally {
		void reader.cancel().catch(() => undefined)
	}
	if (size === 0) return null
	return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, max))
}
