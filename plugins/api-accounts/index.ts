/**
 * Family B of the account REST interface (docs/rest.md#rest-login-against-a-main-server-family-b): login and
 * logout under `/api/accounts/` against a main server, another deployment of this service with
 * family A, named by `MAIN_SERVER_URL`. The main server checks the password; this one synchronises
 * the local profile (company, work status, owner flag), applies the owner and non-owner access
 * rules, and opens a local session exactly like family A's (same cookies, CSRF, WebSocket access),
 * which keeps the main server's tokens server-side so that logout can end the session there too.
 */
import { Elysia } from 'elysia'
import {
	answerOtherMethods,
	definePlugin,
	type RestContext,
	type SettingsOptions,
	serveRoutes,
} from 'userbot-gateway/plugin'
import { apiAccountsApi, apiAccountsRouteList } from './api'
import { createMainServer } from './main-server'
import { API_ACCOUNTS_SETTINGS, type ApiAccountsSettings } from './settings'

const NO_MAIN_SERVER =
	'MAIN_SERVER_URL is not set: family B logs in against a main server (a deployment of this service with family A) and needs its URL'

/** Family B; `options` (./settings.ts) override MAIN_SERVER_URL and MAIN_SERVER_TIMEOUT. */
export const apiAccounts = (options: SettingsOptions<typeof API_ACCOUNTS_SETTINGS.shape> = {}) =>
	definePlugin({
		id: 'api-accounts',
		api: apiAccountsApi,
		settings: API_ACCOUNTS_SETTINGS,
		options,
		unavailable: (_config, settings) => (settings.mainServerUrl ? null : NO_MAIN_SERVER),
		build: (ctx, settings) => apiAccountsRoutes(ctx, settings),
	})

/** The plugin's routes on a REST context: the app's, or the edge entry's (src/platform/edge/app.ts). */
export function apiAccountsRoutes(ctx: RestContext, settings: ApiAccountsSettings): Elysia {
	const url = settings.mainServerUrl
	if (!url) throw new Error(`api-accounts: ${NO_MAIN_SERVER}`)
	const main = createMainServer({
		url,
		timeoutMs: settings.mainServerTimeoutMs,
		log: ctx.log.child({ plugin: 'api-accounts' }),
	})
	// Typed as the plain instance the plugin contract returns; `use` registers in place.
	const app: Elysia = new Elysia({ name: 'api-accounts' })
	app.use(serveRoutes({ ctx, main }, apiAccountsRouteList, ctx.auth.guard()))
	answerOtherMethods(app)
	return app
}
