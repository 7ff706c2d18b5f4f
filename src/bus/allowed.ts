import type { PluginDefinition } from '../plugin'
import { LIFECYCLE_METHODS } from '../userbots/auth-states'

/**
 * What a shard lets through: for each label a request may carry (a command's wire name, a
 * lifecycle step), the TDLib methods its sender declares, read from the same plugins the gateways
 * load (`PLUGINS`). A request without a label, or with one no plugin declares, sends nothing.
 * A command group that a plugin registers only from `build` (not in `commands`) is unknown here.
 */
export function methodsByLabel(plugins: readonly PluginDefinition[]): Map<string, ReadonlySet<string>> {
	const byLabel = new Map<string, ReadonlySet<string>>()
	for (const [label, method] of Object.entries(LIFECYCLE_METHODS)) byLabel.set(label, new Set([method]))
	for (const plugin of plugins)
		for (const command of plugin.commands ?? []) byLabel.set(command.name, new Set(command.methods))
	return byLabel
}
