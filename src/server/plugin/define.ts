import type { AnyElysia } from 'elysia'
import type { CommandDefinition } from '../commands/define'
import type { Config } from '../config'
import type { AppContext } from '../context'
import type { PluginSettings, SettingsOf, SettingsOptions, SettingsShape } from './settings'

/**
 * A plugin is one auth family, the userbot lifecycle, or one command group. `commands` are served on
 * the WebSocket channel as the command group named by `id`; `build` (optional) returns routes as a
 * named Elysia instance (or null) and may register further groups with `ctx.registerCommands`. A
 * plugin that is not loaded leaves no route and no command behind.
 */
export interface PluginDefinition<
	C extends readonly CommandDefinition[] = readonly CommandDefinition[],
	S extends SettingsShape = SettingsShape,
> {
	/** Unique among the loaded plugins: two of one id stop the start. */
	id: string
	/** The commands of this plugin's command group (the group's id is the plugin's). */
	commands?: C
	/**
	 * Commands whose definition depends on the plugin's settings (td_invoke's `methods` are the
	 * operator's allow-list): called once when the plugin is chosen, with its settings; what it
	 * returns replaces `commands` everywhere (the gateway's refusal, a shard's check, the catalog),
	 * so each definition stays true of what it may send. `commands` is what it returns with the
	 * defaults, for whoever reads the plugin unloaded (the typed client).
	 */
	commandsFor?(settings: SettingsOf<S>): C
	/**
	 * The labels of the TDLib requests this plugin sends outside its commands (the userbot lifecycle's
	 * log-in steps and files route), each with the one TDLib method it carries: a shard on the bus
	 * lets a request under such a label through with that method only (src/runtime/bus/allowed.ts).
	 * Each label starts with the plugin's id and a colon (`userbots:phone`); another stops the shard.
	 */
	labels?: Readonly<Record<string, string>>
	/**
	 * The plugin's own settings (`definePluginSettings`), read from the environment when the app is
	 * made, `options` (given in code, to the plugin's factory) over them; handed to `unavailable` and
	 * `build`. Not read at all when the plugin is not loaded.
	 */
	settings?: PluginSettings<S>
	options?: SettingsOptions<S>
	/**
	 * A third-party plugin's own tables: the folder of its drizzle-kit migrations (absolute path),
	 * applied by the core at start after its own, under the same lease (two processes at once stay
	 * safe), recorded in `__drizzle_migrations_<id>`. The built-in plugins' tables are in the core's
	 * migrations (drizzle.config.ts reads each one's tables.ts). docs/plugins.md#tables.
	 */
	migrations?: string
	/** A sentence saying why this plugin cannot load with this config, or null when it can. */
	unavailable?(config: Config, settings: SettingsOf<S>): string | null
	build?(ctx: AppContext, settings: SettingsOf<S>): AnyElysia | null | Promise<AnyElysia | null>
	/**
	 * The REST routes `build` serves, as data (src/server/openapi/route-data.ts): bodies, answers, summaries,
	 * auth requirement. The OpenAPI document describes each served route from it; a served route no
	 * loaded plugin describes is listed bare.
	 */
	api?: AnyElysia
}

export function definePlugin<
	const C extends readonly CommandDefinition[] = readonly [],
	S extends SettingsShape = Record<never, never>,
>(def: PluginDefinition<C, S>): PluginDefinition<C, S> {
	return def
}

/** A plugin's settings as it gets them: read from `env`, its options over them (ConfigError when bad). */
export function pluginSettingsOf(
	plugin: PluginDefinition,
	env: Readonly<Record<string, string | undefined>>,
	core: { bus?: unknown },
): Record<string, unknown> {
	return plugin.settings ? plugin.settings.read(env, plugin.options, core) : {}
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
		(p.commandsFor === undefined || typeof p.commandsFor === 'function') &&
		(p.migrations === undefined || typeof p.migrations === 'string') &&
		(p.labels === undefined || (typeof p.labels === 'object' && p.labels !== null)) &&
		(p.settings === undefined ||
			(typeof p.settings === 'object' && p.settings !== null && 'read' in p.settings)) &&
		(p.build !== undefined || p.commands !== undefined)
	)
}
