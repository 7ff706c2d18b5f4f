import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/** Random secrets for cookies and links: 32 bytes (256 bits), URL-safe. */
export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url')

/** Secrets that must be looked up are stored as their SHA-256, never as issued. */
export const sha256: (value: string) => string =
	// Bun's one-shot hash is an order cheaper than a node:crypto Hash object (every request that
	// presents a session hashes it); under Deno, node:crypto's.
	typeof Bun !== 'undefined'
		? (value) => Bun.SHA256.hash(value, 'hex')
		: (value) => createHash('sha256').update(value).digest('hex')

/** Constant-time string comparison (lengths may differ). */
export function safeEqual(a: string, b: string): boolean {
	const x = Buffer.from(a)
	const y = Buffer.from(b)
	return x.length === y.length && timingSafeEqual(x, y)
}
