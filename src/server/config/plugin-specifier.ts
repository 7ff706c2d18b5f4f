import { isAbsolute, resolve } from 'node:path'

/**
 * `PLUGINS` names built-in plugins by id and any other plugin by its package name or a path
 * (`./examples/chats`, `/opt/plugins/crm`, `@acme/userbot-crm`): the module's default export, or its
 * export named `plugin`, is the plugin. Paths are read from the working folder, packages from its
 * `node_modules`, as a runtime resolves them.
 */

/** A path rather than a package name: it starts with `.` or `/` (or `file:`). */
export const isPathSpecifier = (spec: string) =>
	spec.startsWith('./') || spec.startsWith('../') || isAbsolute(spec) || spec.startsWith('file:')

/** npm's rules for a package name, with an optional subpath (`@scope/name/sub`). */
const PACKAGE = /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*(\/[A-Za-z0-9._~-]+)*$/

export const isPackageSpecifier = (spec: string) => PACKAGE.test(spec)

/** The file a specifier names, from `cwd`; null when nothing is there. */
export function resolvePluginSpecifier(spec: string, cwd = process.cwd()): string | null {
	const target = spec.startsWith('file:') ? new URL(spec).pathname : spec
	try {
		if (typeof Bun !== 'undefined') return Bun.resolveSync(target, cwd)
		// Deno: no Bun resolver; a path is enough there (Deno loads only the REST plugins anyway).
		return isPathSpecifier(target) ? resolve(cwd, target) : null
	} catch {
		return null
	}
}
