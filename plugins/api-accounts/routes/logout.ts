import { Elysia } from 'elysia'
import { json, type RestContext, readJsonObject } from 'userbot-gateway/plugin'
import { MESSAGES } from '../errors'
import type { MainServer } from '../main-server'

/**
 * POST /api/accounts/logout/ (body: an empty JSON object): the local part is family A's logout
 * (CSRF, bearer, session deleted with its cached main-server tokens); then the main server's
 * session of that login is ended (blacklist). The cookies are cleared in every case; when the main
 * server could not be told, `message` says so. A family A session logs out here as it would there.
 */
export const logoutRoute = (ctx: RestContext, main: MainServer) =>
	new Elysia().post(
		'/api/accounts/logout/',
		async ({ request }) => {
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
		{ parse: 'none' },
	)
