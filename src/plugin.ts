import type { AnyElysia } from 'elysia'
import type { Config } from './config'
import type { AppContext } from './context'

/**
 * A plugin is one auth family, the userbot lifecycle, or one command group. `build` returns its
 * routes as a named Elysia instance (or null when it has none) and registers its commands with
 * `ctx.registerCommands`. A plugin that is not loaded leaves no route and no command behind.
 */
export interface PluginDefinition {
	id: string
	/** A sentence saying why this plugin cannot load with this config, or null when it can. */
	unavailable?(config: Config): string | null
	build(ctx: AppContext): AnyElysia | null | Promise<AnyElysia | null>
}

export function definePlugin(def: PluginDefinition): PluginDefinition {
	return def
}
