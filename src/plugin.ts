import type { AnyElysia } from 'elysia'
import type { CommandDefinition } from './commands/define'
import type { Config } from './config'
import type { AppContext } from './context'

/**
 * A plugin is one auth family, the userbot lifecycle, or one command group. `commands` are served on
 * the WebSocket channel as the command group named by `id`; `build` (optional) returns routes as a
 * named Elysia instance (or null) and may register further groups with `ctx.registerCommands`. A
 * plugin that is not loaded leaves no route and no command behind.
 */
export interface PluginDefinition<C extends readonly CommandDefinition[] = readonly CommandDefinition[]> {
	/** Unique among the loaded plugins: two of one id stop the start. */
	id: string
	/** The commands of this plugin's command group (the group's id is the plugin's). */
	commands?: C
	/** A sentence saying why this plugin cannot load with this config, or null when it can. */
	unavailable?(config: Config): string | null
	build?(ctx: AppContext): AnyElysia | null | Promise<AnyElysia | null>
	/**
	 * The REST routes `build` serves, as data (src/openapi/route-data.ts): bodies, answers, summaries,
	 * auth requirement. The OpenAPI document describes each served route from it; a served route no
	 * loaded plugin describes is listed bare.
	 */
	api?: AnyElysia
}

export function definePlugin<const C extends readonly CommandDefinition[] = readonly []>(
	def: PluginDefinition<C>,
): PluginDefinition<C> {
	return def
}

/** Whether a module's export is a plugin definition: what `PLUGINS` may load from a package or a path. */
export function isPluginDefinition(x: unknown): x is PluginDefinition {
	if (typeof x !== 'object' || x === null) return false
	const p = x as Record<string, unknown>
	return (
		typeof p.id === 'string' &&
		(p.build === undefined || typeof p.build === 'function') &&
		(p.api === undefined || (typeof p.api === 'object' && p.api !== null && 'routes' in p.api)) &&
		(p.commands === undefined || Array.isArray(p.commands)) &&
		(p.build !== undefined || p.commands !== undefined)
	)
}
