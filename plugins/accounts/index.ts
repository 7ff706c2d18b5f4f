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
} from 'userbot-gateway/plugin'
import { accountsApi } from './api'
import { checkPasswordRoute } from './routes/check-password'
import { inviteRoutes } from './routes/invites'
import { loginRoute } from './routes/login'
import { logoutRoute } from './routes/logout'
import { meRoute } from './routes/me'
import { memberGrantRoutes } from './routes/member-grants'
import { memberRoutes } from './routes/members'
import { registerRoute } from './routes/register'
import { resetRoutes } from './routes/reset'
import { tokenRoutes } from './routes/tokens'
import { ACCOUNTS_SETTINGS, type AccountsSettings } from './settings'

/** Family A; `options` (./settings.ts) override SMTP_URL, EMAIL_FROM, the lifetimes and the limits. */
export const accounts = (options: SettingsOptions<typeof ACCOUNTS_SETTINGS.shape> = {}) =>
	definePlugin({
		id: 'accounts',
		api: accountsApi,
		settings: ACCOUNTS_SETTINGS,
		options,
		build: (ctx, settings) => accountsRoutes(ctx, settings),
	})

/** The plugin's routes on a REST context: the app's, or the edge entry's (src/edge/app.ts). */
export function accountsRoutes(ctx: RestContext, settings: AccountsSettings): Elysia {
	const services = { settings, mailer: createMailer(settings, ctx.log) }
	// Typed as the plain instance the plugin contract returns; `use` registers in place.
	const app: Elysia = new Elysia({ name: 'accounts' })
	for (const routes of [
		meRoute(ctx),
		registerRoute(ctx, settings),
		checkPasswordRoute(ctx, settings),
		loginRoute(ctx),
		logoutRoute(ctx),
		resetRoutes(ctx, services),
		tokenRoutes(ctx),
		inviteRoutes(ctx, settings),
		memberRoutes(ctx),
		memberGrantRoutes(ctx),
	]) {
		app.use(routes)
	}
	answerOtherMethods(app)
	return app
}
