import { pathToFileURL } from 'node:url'
import { bundled } from '../../build/bundled'
import { provideHostModules } from '../../build/host-modules'
import { ConfigError } from '../config'
import { resolvePluginSpecifier } from '../config/plugin-specifier'
import { isPluginDefinition, type PluginDefinition } from './define'

/** Imports the plugin a `PLUGINS` entry names. Failures are one configuration line naming the entry. */
export async function loadPluginModule(spec: string, cwd = process.cwd()): Promise<PluginDefinition> {
	// The binary has no node_modules: a plugin's imports of the plugin API get the binary's own copy.
	if (bundled()) provideHostModules()
	const file = resolvePluginSpecifier(spec, cwd)
	if (!file) throw new ConfigError(`PLUGINS: unknown plugin '${spec}': no file at that path`)
	let mod: Record<string, unknown>
	try {
		mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>
	} catch (err) {
		throw new ConfigError(`PLUGINS: ${spec}: cannot be loaded: ${firstLine(err)}`)
	}
	// **Decision** (docs/plugins.md#settings): a module may export a factory instead of a plugin; it
	// is called with no options, so the plugin's settings come from the environment alone.
	const exported = mod.default ?? mod.plugin
	let plugin: unknown = exported
	if (typeof exported === 'function') {
		try {
			plugin = (exported as () => unknown)()
		} catch (err) {
			if (err instanceof ConfigError) throw err
			throw new ConfigError(`PLUGINS: ${spec}: its factory failed: ${firstLine(err)}`)
		}
	}
	if (!isPluginDefinition(plugin)) {
		throw new ConfigError(
			`PLUGINS: ${spec}: exports no plugin (a default export or an export named plugin, made with definePlugin)`,
		)
	}
	return plugin
}

function firstLine(err: unknown): string {
	const text = err instanceof Error ? err.message : String(err)
	return (text.split(/\r?\n/)[0] ?? '').trim().slice(0, 200) || 'unknown error'
}
