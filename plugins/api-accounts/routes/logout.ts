import { Elysia } from 'elysia'
import type { AuthCore } from '../../../src/auth'
import { readCookie, SESSION_COOKIE } from '../../../src/auth/cookies'
import { clearedCookies, json } from '../../../src/auth/respond'
import { endCaller } from '../../../src/auth/web-session'
import { readJsonObject } from '../../../src/http/body'
import { MESSAGES } from '../errors'
import type { MainServer } from '../main-server'
import { mainRefreshOf } from '../session-tokens'

/**
 * POST /api/accounts/logout/ (body: an empty JSON object): the local part is family A's logout
 * (CSRF, bearer, session deleted with its cached main-server tokens); then the main server's
 * session of that login is ended (blacklist). The cookies are cleared in every case; when the main
 * server could not be told, `message` says so. A family A session logs out here as it would there.
 */
export const logoutRoute = (core: AuthCore, main: MainServer) =>
	new Elysia().post(
		'/api/accounts/logout/',
		async ({ request }) => {
			await readJsonObject(request)
			// Read first: ending the session (here, or in `resolve` for an expired one) deletes the row.
			const mainRefresh = await mainRefreshOf(
				core.db,
				readCookie(request.headers.get('cookie'), SESSION_COOKIE),
			)
			const ended = await endCaller(core, request)
			let message: string = MESSAGES.loggedOut
			if (ended !== null && mainRefresh !== null && (await main.blacklist(mainRefresh)) === 'unavailable') {
				message = MESSAGES.loggedOutLocally
			}
			return json({ message }, 200, clearedCookies(core.config))
		},
		{ parse: 'none' },
	)
