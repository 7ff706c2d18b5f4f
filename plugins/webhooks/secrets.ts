/**
 * An endpoint's signing secret: `whsec_` + base64 of 32 random bytes, shown once when made. At rest
 * it is sealed with the server's data key (AES-256-GCM, WebCrypto), bound to the endpoint id as
 * associated data (a sealed secret copied onto another endpoint's row does not open): the stored
 * form is `v1.<iv>.<ciphertext+tag>`, base64url, as the userbots' database keys are kept.
 */
const VERSION = 'v1'
const PREFIX = 'whsec_'

const b64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url')
const fromB64url = (text: string): Uint8Array<ArrayBuffer> => new Uint8Array(Buffer.from(text, 'base64url'))

export function generateSecret(): string {
	return PREFIX + Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64')
}

async function importDataKey(dataKey: string): Promise<CryptoKey> {
	const raw = fromB64url(dataKey)
	// As for the userbots' keys: a hand-set data key of another length is hashed to fit.
	const material = raw.byteLength === 32 ? raw : new Uint8Array(await crypto.subtle.digest('SHA-256', raw))
	return crypto.subtle.importKey('raw', material, 'AES-GCM', false, ['encrypt', 'decrypt'])
}

const associatedData = (endpointId: number) => new TextEncoder().encode(`webhook:${endpointId}`)

export async function sealSecret(dataKey: string, endpointId: number, secret: string): Promise<string> {
	const iv = crypto.getRandomValues(new Uint8Array(12))
	const sealed = await crypto.subtle.encrypt(
		{ name: 'AES-GCM', iv, additionalData: associatedData(endpointId) },
		await importDataKey(dataKey),
		new TextEncoder().encode(secret),
	)
	return `${VERSION}.${b64url(iv)}.${b64url(new Uint8Array(sealed))}`
}

/** Throws when the sealed secret was not made with this data key for this endpoint. */
export async function openSecret(dataKey: string, endpointId: number, sealed: string): Promise<string> {
	const [version, iv, body] = sealed.split('.')
	if (version !== VERSION || !iv || !body) throw new Error('sealed webhook secret has an unknown format')
	const plain = await crypto.subtle.decrypt(
		{ name: 'AES-GCM', iv: fromB64url(iv), additionalData: associatedData(endpointId) },
		await importDataKey(dataKey),
		fromB64url(body),
	)
	return new TextDecoder().decode(plain)
}

/**
 * An endpoint's secret as an HMAC key: the bytes after `whsec_`, decoded once per secret (the
 * deliverer keeps them) rather than at every attempt.
 */
export function signingKey(secret: string): Buffer {
	return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64')
}

/**
 * Standard Webhooks signing: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body` (Unix seconds), with
 * Bun's native hasher (the `standardwebhooks` package's pure-JS hash cost about a fifth of a delivery,
 * `node:crypto`'s `createHmac`, a stream object per call, still twice this; tests verify every
 * delivery with that package). While a rotated-out secret still signs, both
 * signatures go, space-separated, new first: a receiver that knows either secret accepts it.
 */
export function signatureHeader(keys: readonly Buffer[], messageId: string, at: Date, body: string): string {
	return signature(keys, messageId, Math.floor(at.getTime() / 1000), body)
}

/** HMAC-SHA256 hashers keyed once per signing key and copied for each signature (keying costs a third of one). */
const keyed = new WeakMap<Buffer, Bun.CryptoHasher>()

/** `signatureHeader` at `seconds` (Unix time): the attempt's own, without a `Date`. */
export function signature(keys: readonly Buffer[], messageId: string, seconds: number, body: string): string {
	const prefix = `${messageId}.${seconds}.`
	let header = ''
	for (const k of keys) {
		let hasher = keyed.get(k)
		if (hasher === undefined) {
			hasher = new Bun.CryptoHasher('sha256', k)
			keyed.set(k, hasher)
		}
		const mac = hasher.copy().update(prefix).update(body).digest('base64')
		header = header === '' ? `v1,${mac}` : `${header} v1,${mac}`
	}
	return header
}
