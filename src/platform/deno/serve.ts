import type { AnyElysia } from 'elysia'
import { type Config, ConfigError } from '../../server/config'

/**
 * What the Deno entry (platform/deno/main.ts) needs beyond the app, kept apart so Bun's tests can check it.
 * Only plugins that need neither TDLib's supervisor child (`Bun.spawn`) nor the WebSocket channel
 * (Bun's server) load on Deno: the command channel stays on Bun.
 */
export const DENO_PLUGINS: readonly string[] = ['accounts', 'api-accounts']

/** What `Deno.serve` tells a handler beside the request. */
export interface DenoServeInfo {
	remoteAddr: { hostname: string }
}
/**
 * The plugins to load on Deno, of those asked for (PLUGINS, else every one of `offered`); asked by name
 * for one that needs Bun, the server does not start.
 */
export function denoPlugins(
	config: Config,
	offered: readonly string[],
): { ids: string[]; skipped: string[] } {
	const asked = config.pluginsExplicit ? config.plugins : offered
	const bunOnly = asked.filter((id) => !DENO_PLUGINS.includes(id))
	if (config.pluginsExplicit && bunOnly.length > 0) {
		throw new ConfigError(
			`PLUGINS: ${bunOnly.join(', ')} need Bun (the TDLib supervisor and the WebSocket channel); on Deno: ${DENO_PLUGINS.join(', ')}`,
		)
	}
	return { ids: asked.filter((id) => DENO_PLUGINS.includes(id)), skipped: bunOnly }
}

/**
 * Elysia's routes read the client's address through `server.requestIP` (rate limits are per IP);
 * under `Deno.serve` the address comes with each request instead, so it is kept beside the request
 * and handed back through a server object of that one method.
 */
export function denoHandler(app: AnyElysia) {
	const addresses = new WeakMap<Request, string>()
	;(app as unknown as { server: unknown }).server = {
		requestIP: (request: Request) => {
			const address = addresses.get(request)
			return address === undefined ? null : { address }
		},
	}
	return (request: Request, info: DenoServeInfo) => {
		addresses.set(request, info.remoteAddr.hostname)
		return app.fetch(request)
	}
}
