import { openSecret, signingKey } from './secrets'

/**
 * What both senders of a delivery share (the database outbox's deliver.ts and the JetStream outbox's
 * attempt.ts): the opened signing keys, and the part of a receiver's answer that is kept.
 */

export interface SigningKeys {
	/** The signing key of an endpoint's sealed secret. */
	get(endpointId: number, sealed: string): Promise<Buffer>
}

/**
 * Signing keys opened and decoded once, not at every attempt; kept by endpoint and sealed text, so a
 * sealed secret copied onto another endpoint's row still does not open.
 */
export function signingKeys(dataKey: string): SigningKeys {
	const keys = new Map<string, Buffer>()
	return {
		async get(endpointId, sealed) {
			const slot = `${endpointId}:${sealed}`
			let key = keys.get(slot)
			if (key === undefined) {
				key = signingKey(await openSecret(dataKey, endpointId, sealed))
				if (keys.size > 10_000) keys.clear()
				keys.set(slot, key)
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
