import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'

/**
 * What a session row must give back to the server but no copy of the database may give anyone
 * (docs/rest.md#secrets-at-rest): the session's JWT pair (session auth refreshes from it), its CSRF
 * token and, for family B, the main server's pair (logout blacklists it there). They are sealed
 * together with AES-256-GCM under a key derived (HKDF-SHA256) from the `sessionid` cookie value,
 * which the server never stores (the row is found by its SHA-256): only a request that carries the
 * cookie can open its row, and a backup, a disk image or a replica holds nothing a client could
 * present. The associated data binds the sealed text to its row (id hash and user).
 *
 * The cookie is 32 random bytes, so HKDF needs no stretching; node:crypto's synchronous calls cost
 * microseconds, on a path that runs only when memory cannot vouch for the session.
 */
export interface SessionSecrets {
	csrfToken: string
	access: string
	refresh: string
	/** Family B: the main server's pair. */
	mainAccess?: string
	mainRefresh?: string
}

const VERSION = 'v1'
const SALT = 'userbot-gateway session'
const INFO = 'session secrets v1'

const keyOf = (sessionId: string) => Buffer.from(hkdfSync('sha256', sessionId, SALT, INFO, 32))
const aadOf = (idHash: string, userId: number) => Buffer.from(`session:${idHash}:${userId}`)

export function sealSession(
	sessionId: string,
	idHash: string,
	userId: number,
	secrets: SessionSecrets,
): string {
	const iv = randomBytes(12)
	const cipher = createCipheriv('aes-256-gcm', keyOf(sessionId), iv)
	cipher.setAAD(aadOf(idHash, userId))
	const body = Buffer.concat([
		cipher.update(JSON.stringify(secrets), 'utf8'),
		cipher.final(),
		cipher.getAuthTag(),
	])
	return `${VERSION}.${iv.toString('base64url')}.${body.toString('base64url')}`
}

/** The secrets, or null when `sealed` was not made for this cookie value and row. */
export function openSealedSession(
	sessionId: string,
	idHash: string,
	userId: number,
	sealed: string,
): SessionSecrets | null {
	const [version, iv, text] = sealed.split('.')
	if (version !== VERSION || !iv || !text) return null
	const body = Buffer.from(text, 'base64url')
	if (body.length < 16) return null
	try {
		const decipher = createDecipheriv('aes-256-gcm', keyOf(sessionId), Buffer.from(iv, 'base64url'))
		decipher.setAAD(aadOf(idHash, userId))
		decipher.setAuthTag(body.subarray(body.length - 16))
		const plain = Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()])
		return parseSecrets(plain.toString('utf8'))
	} catch {
		return null
	}
}

function parseSecrets(text: string): SessionSecrets | null {
	const value = JSON.parse(text) as Partial<Record<keyof SessionSecrets, unknown>>
	const { csrfToken, access, refresh, mainAccess, mainRefresh } = value
	if (typeof csrfToken !== 'string' || typeof access !== 'string' || typeof refresh !== 'string') return null
	const optional = (v: unknown) => (typeof v === 'string' ? v : undefined)
	return { csrfToken, access, refresh, mainAccess: optional(mainAccess), mainRefresh: optional(mainRefresh) }
}
