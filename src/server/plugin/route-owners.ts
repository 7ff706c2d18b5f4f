import type { AnyElysia } from 'elysia'
import { StartupError } from '../../common/util/startup-error'
import { schemasFault } from '../http/route-schemas'
import { entryFault, type PolicyEntry } from '../policy/entry'

/** The policy entry a served route carries (`restRoute`'s `policy`, or a plain route's `policyHook`). */
export const policyOf = (route: AnyElysia['routes'][number]): PolicyEntry | undefined =>
	(route.hooks as { policy?: PolicyEntry } | undefined)?.policy

/**
 * Who serves each route. Elysia takes a second route of one method and path without a word (and then
 * answers neither), so the app checks as each plugin's routes arrive: two plugins claiming one
 * `METHOD path` stop the start with one line naming both. And every route states what it needs
 * (docs/policy.md): one without a policy entry, or with a broken one, stops the start too; and so
 * does a schema of a served route or of a plugin's route data (`api`) that is not valibot's (issue 44:
 * one schema language, src/server/http/route-schemas.ts).
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
		for (const route of routes.routes) {
			const fault = entryFault(policyOf(route))
			if (fault)
				throw new StartupError(
					`route ${route.method} ${route.path} of ${label(owner)} ${fault} (docs/policy.md)`,
				)
		}
		checkSchemas(owner, routes)
	}
}

/** A plugin's routes, served or described (its `api`): each schema valibot's, or the start stops. */
export function checkSchemas(owner: string, routes: AnyElysia): void {
	for (const route of routes.routes) {
		const fault = schemasFault(route.hooks)
		if (fault) throw new StartupError(`route ${route.method} ${route.path} of ${label(owner)} ${fault}`)
	}
}

const label = (owner: string) => (owner === 'core' ? 'the core' : `plugin '${owner}'`)
