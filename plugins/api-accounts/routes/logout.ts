import {
	BEARER_OR_SESSION,
	json,
	PUBLIC_WRITE,
	ROUTE_ERRORS,
	readJsonObject,
	restRoute,
	RestSchemas as S,
} from 'userbot-gateway/plugin'
import { MESSAGES } from '../errors'
import type { FamilyB } from '../family-b'

/**
 * POST /api/accounts/logout/ (body: an empty JSON object): the local part is family A's logout
 * (CSRF, bearer, session deleted with its cached main-server tokens); then the main server's
 * session of that login is ended (blacklist). The cookies are cleared in every case; when the main
 * server could not be told, `message` says so. A family A session logs out here as it would there.
 */
export const logoutRoutes = [
	restRoute({
		method: 'post',
		path: '/api/accounts/logout/',
		policy: PUBLIC_WRITE,
		response: { 200: S.Message, ...ROUTE_ERRORS.authed },
		detail: {
			operationId: 'logOutOnMainServer',
			summary: 'Ends the session here and on the main server',
			tags: ['main-server login'],
			security: BEARER_OR_SESSION,
		},
		handle: async ({ ctx, main }: FamilyB, { request }) => {
			// No fields, but a body that is no JSON object is refused as anywhere else.
			await readJsonObject(request)
			// Read first: ending the session (here, or in `resolve` for an expired one) deletes the row.
			const mainRefresh = await ctx.auth.mainRefreshOf(request)
			const ended = await ctx.auth.endSession(request)
			let message: string = MESSAGES.loggedOut
			if (ended !== null && mainRefresh !== null && (await main.blacklist(mainRefresh)) === 'unavailable') {
				message = MESSAGES.loggedOutLocally
			}
			return json({ message }, 200, ctx.auth.clearedCookies())
		},
	}),
] as const
