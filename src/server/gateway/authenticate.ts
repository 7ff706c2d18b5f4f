import { AUTHENTICATE, errorReply, successReply } from '../../common/wire/envelope'
import { GatewayErrors as E } from '../../common/wire/errors'
import type { AppContext } from '../context'
import type { Connections } from './connections'
import type { ConnectionAction } from './frame-checks'
import { GatewaySocket } from './socket'

/**
 * `authenticate`: a fresh access token of the same user renews the socket before it expires
 * (docs/protocol.md). Answered `authenticate` with the new `expires_at` (seconds), or
 * `authenticate_error`; a socket that expired or was revoked meanwhile says why.
 */
export function authenticateAction(ctx: AppContext, connections: Connections): ConnectionAction {
	return async (conn, frame, requestId) => {
		const fail = (error: string) => errorReply(null, `${AUTHENTICATE}_error`, error, requestId)
		const token = frame.access
		if (typeof token !== 'string' || token === '') return fail(E.ACCESS_REQUIRED)
		const outcome = await ctx.auth.authenticateAccess(token)
		if (!(conn instanceof GatewaySocket) || conn.state === 'ended' || conn.refusing !== null)
			return fail(conn.refusing ?? E.ACCESS_INVALID)
		if (!outcome.ok) return fail(E.ACCESS_INVALID)
		const now = conn.credential.principal
		if (outcome.principal.userId !== now.userId || outcome.principal.companyId !== now.companyId) {
			return fail(E.ACCESS_OTHER_USER)
		}
		if (!connections.renew(conn, outcome.credential, outcome.principal))
			return fail(conn.refusing ?? E.ACCESS_INVALID)
		return successReply(
			null,
			AUTHENTICATE,
			{ expires_at: Math.floor(outcome.credential.expiresAt / 1000) },
			requestId,
		)
	}
}
