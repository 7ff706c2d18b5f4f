/** Who is calling, as resolved from a session cookie or a bearer access token. */
export interface Principal {
	userId: number
	email: string
	companyId: number | null
	isOwner: boolean
	via: 'session' | 'bearer'
}

export type AuthOutcome =
	| { ok: true; principal: Principal }
	| { ok: false; status: 401 | 403; body: { detail: string; code?: string } }

/**
 * The one way every plugin (accounts, userbots, the WebSocket gateway) learns who is calling.
 * Built by `src/auth` from the database and the config; family A and family B both create the
 * sessions it reads.
 */
export interface Authenticator {
	/**
	 * REST: `Authorization: Bearer <access>` first, else the `sessionid` cookie. An unsafe method
	 * (POST, PUT, PATCH, DELETE) authenticated by the cookie must pass the CSRF check (contract §3).
	 * An expired access token inside a session is refreshed from the stored refresh token.
	 */
	authenticate(request: Request): Promise<AuthOutcome>
	/** WebSocket upgrade: bearer, or the session cookie with an allowed `Origin` (contract §6). */
	authenticateUpgrade(request: Request): Promise<AuthOutcome>
}
