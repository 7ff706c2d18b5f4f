/**
 * Each userbot's TDLib database key is 32 random bytes, kept at rest sealed with the server's data
 * key (AES-256-GCM, WebCrypto). The stored form is `v1.<iv>.<ciphertext+tag>` in base64url, bound
 * to the userbot id as associated data, so a sealed key copied onto another row does not open.
 */

const VERSION = 'v1'

const b64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url')
const fromB64url = (text: string): Uint8Array<ArrayBuffer> => new Uint8Array(Buffer.from(text, 'base64url'))

async function importDataKey(dataKey: string): Promise<CryptoKey> {
	const raw = fromB64url(dataKey)
	// The data key is generated as 32 random bytes; a hand-set one of another length is hashed to fit.
	const material = raw.byteLength === 32 ? raw : new Uint8Array(await crypto.subtle.digest('SHA-256', raw))
	return crypto.subtle.importKey('raw', material, 'AES-GCM', false, ['encrypt', 'decrypt'])
}

/** `userbot:<id>` for the database key; the proxy's secrets are bound to their purpose as well. */
const associatedData = (userbotId: number, purpose = 'userbot') =>
	new TextEncoder().encode(`${purpose}:${userbotId}`)

/** A fresh TDLib database key, base64 (the form `setTdlibParameters` takes). */
export function generateDatabaseKey(): string {
	return Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64')
}

export async function sealDatabaseKey(
	dataKey: string,
	userbotId: number,
	databaseKey: string,
	purpose = 'userbot',
): Promise<string> {
	const iv = crypto.getRandomValues(new Uint8Array(12))
	const key = await importDataKey(dataKey)
	const sealed = await crypto.subtle.encrypt(
		{ name: 'AES-GCM', iv, additionalData: associatedData(userbotId, purpose) },
		key,
		new TextEncoder().encode(databaseKey),
	)
	return `${VERSION}.${b64url(iv)}.${b64url(new Uint8Array(sealed))}`
}

/** Throws when the sealed key was not made with this data key for this userbot. */
export async function openDatabaseKey(
	dataKey: string,
	userbotId: number,
	sealed: string,
	purpose = 'userbot',
): Promise<string> {
	const [version, iv, body] = sealed.split('.')
	if (version !== VERSION || !iv || !body) throw new Error('sealed database key has an unknown format')
	const key = await importDataKey(dataKey)
	const plain = await crypto.subtle.decrypt(
		{ name: 'AES-GCM', iv: fromB64url(iv), additionalData: associatedData(userbotId, purpose) },
		key,
		fromB64url(body),
	)
	return new TextDecoder().decode(plain)
}

/** What a userbot's sealed secret is: its TDLib database key, or its proxy's password or secret. */
export type SealedPurpose = 'database' | 'proxy'

const PURPOSE: Record<SealedPurpose, string> = { database: 'userbot', proxy: 'userbot-proxy' }

/**
 * A userbot's secrets at rest, sealed with the server's data key (`ctx.sealing`): the userbots
 * plugin seals and opens them through this, bound to the userbot and the purpose, as the backup
 * checks them (src/server/backup).
 */
export interface UserbotSealing {
	/** A fresh TDLib database key, base64. */
	newDatabaseKey(): string
	seal(userbotId: number, purpose: SealedPurpose, plain: string): Promise<string>
	/** Throws when `sealed` was not made with this data key for this userbot and purpose. */
	open(userbotId: number, purpose: SealedPurpose, sealed: string): Promise<string>
}

export const userbotSealing = (dataKey: string): UserbotSealing => ({
	newDatabaseKey: generateDatabaseKey,
	seal: (userbotId, purpose, plain) => sealDatabaseKey(dataKey, userbotId, plain, PURPOSE[purpose]),
	open: (userbotId, purpose, sealed) => openDatabaseKey(dataKey, userbotId, sealed, PURPOSE[purpose]),
})
