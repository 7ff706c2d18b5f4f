/**
 * Family A of the account REST interface (docs/rest.md#rest-accounts-family-a): registration with optional
 * company invites, login and logout into server-side sessions that keep the JWT pair, password
 * reset by email, simplejwt-style token views for callers without sessions, and `me/`. The
 * security machinery (hashing, sessions, CSRF, token families, rate limits) lives in the core and
 * reaches this plugin as `ctx.auth`; this plugin is its HTTP face, with its own settings (mail,
 * reset and invite lifetimes, the register and reset limits: ./settings.ts).
 */
import { Elysia } from 'elysia'
import {
	answerOtherMethods,
	createMailer,
	definePlugin,
	type RestContext,
	type SettingsOptions,
	serveRoutes,
} from 'userbot-gateway/plugin'
import { accountsApi, accountsRouteList } from './api'
import { accountLocators } from './locate'
import { ACCOUNTS_SETTINGS, type AccountsContext, type AccountsSettings } from './settings'

/** Family A; `options` (./settings.ts) override SMTP_URL, EMAIL_FROM, the lifetimes and the limits. */
export const accounts = (options: SettingsOptions<typeof ACCOUNTS_SETTINGS.shape> = {}) =>
	definePlugin({
		id: 'accounts',
		api: accountsApi,
		settings: ACCOUNTS_SETTINGS,
		options,
		build: (ctx, settings) => accountsRoutes(ctx, settings),
	})

/** The plugin's routes on a REST context: the app's, or the edge entry's (src/platform/edge/app.ts). */
export function accountsRoutes(ctx: RestContext, settings: AccountsSettings): Elysia {
	const services = { settings, mailer: createMailer(settings, ctx.log) }
	// Typed as the plain instance the plugin contract returns; `use` registers in place.
	const app: Elysia = new Elysia({ name: 'accounts' })
	// The routes' context: the REST context's parts and, under `accounts`, the plugin's own services.
	const routes: AccountsContext = {
		config: ctx.config,
		db: ctx.db,
		log: ctx.log,
		auth: ctx.auth,
		accounts: services,
	}
	app.use(serveRoutes(routes, accountsRouteList, ctx.auth.guard(accountLocators(ctx))))
	answerOtherMethods(app)
	return app
}
