import { eq } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { session } from '../../db/schema'
import { sha256 } from '../../src/auth/crypto'

/**
 * The main server's refresh token cached in a local session row, read before the session is ended
 * (the row goes with it). Null for a family A session, an unknown cookie, or none.
 */
export async function mainRefreshOf(db: Database, sessionId: string | null): Promise<string | null> {
	if (!sessionId || sessionId.length > 256) return null
	const [row] = await db
		.select({ refresh: session.mainRefreshToken })
		.from(session)
		.where(eq(session.idHash, sha256(sessionId)))
	return row?.refresh ?? null
}
