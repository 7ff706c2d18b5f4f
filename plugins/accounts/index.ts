/**
 * Family A of the account REST interface (docs/rest.md#rest-accounts-family-a): registration with optional
 * company invites, login and logout into server-side sessions that keep the JWT pair, password
 * reset by email, simplejwt-style token views for callers without sessions, and `me/`. The
 * security machinery (hashing, sessions, CSRF, token families, rate limits, mail) lives in
 * the core and reaches this plugin as `ctx.auth`; this plugin is only its HTTP face.
 */
import { Elysia } from 'elysia'
import { answerOtherMethods, definePlugin, type RestContext, serveRoutes } from 'userbot-gateway/plugin'
import { accountsApi, accountsRouteList } from './api'

export const accountsPlugin = definePlugin({
	id: 'accounts',
	api: accountsApi,
	build: (ctx) => accountsRoutes(ctx),
})

/** The plugin's routes on a REST context: the app's, or the edge entry's (src/edge/app.ts). */
export function accountsRoutes(ctx: RestContext): Elysia {
	// Typed as the plain instance the plugin contract returns; `use` registers in place.
	const app: Elysia = new Elysia({ name: 'accounts' })
	app.use(serveRoutes(ctx, accountsRouteList))
	answerOtherMethods(app)
	return app
}
