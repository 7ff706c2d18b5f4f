import type { AnyElysia } from 'elysia'
import { StartupError } from '../util/startup-error'

/**
 * Who serves each route. Elysia takes a second route of one method and path without a word (and then
 * answers neither), so the app checks as each plugin's routes arrive: two plugins claiming one
 * `METHOD path` stop the start with one line naming both.
 */
export class RouteOwners {
	private readonly owners = new Map<string, { owner: string; route: string }>()

	claim(owner: string, routes: AnyElysia): void {
		const mine = new Set<string>()
		for (const { method, path } of routes.routes) {
			const route = `${method} ${path}`
			// `/x/:id/` and `/x/:name/` are one route to the router.
			const key = `${method} ${path.replace(/:[^/]+/g, ':')}`
			const seen = this.owners.get(key)
			if (seen && !mine.has(key)) {
				const theirs = seen.route === route ? '' : ` (as ${seen.route})`
				throw new StartupError(
					`route ${route} is claimed by both ${label(seen.owner)}${theirs} and ${label(owner)}`,
				)
			}
			mine.add(key)
			this.owners.set(key, { owner, route })
		}
	}
}

const label = (owner: string) => (owner === 'core' ? 'the core' : `plugin '${owner}'`)
