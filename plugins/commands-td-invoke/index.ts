import { definePlugin } from 'userbot-gateway/plugin'
import { expandMethods } from './sets'
import { TD_INVOKE_SETTINGS, type TdInvokeSettings } from './settings'
import { tdInvokeCommand } from './td-invoke'

export { DENIED, type DeniedGroup, isDenied } from './deny'
export { TdInvokeErrors } from './errors'
export { ACTING_GETS, expandMethods, SETS } from './sets'
export { TD_INVOKE_SETTINGS, type TdInvokeSettings } from './settings'

/** The command as the plugin unloaded declares it: the default, no method allowed. */
export const tdInvoke = tdInvokeCommand([])

/**
 * The `commands-td-invoke` group: `td_invoke`, any TDLib method the operator's allow-list
 * (TD_INVOKE_METHODS) names, minus the deny-list (docs/operator.md#any-tdlib-method). Loaded by
 * default and off until the list names a method: the command is in the catalog, and answers
 * `td_invoke is disabled`. Its `methods` are the list, fixed when the plugin is chosen.
 */
export const tdInvokePlugin = (options: Partial<TdInvokeSettings> = {}) =>
	definePlugin({
		id: 'commands-td-invoke',
		settings: TD_INVOKE_SETTINGS,
		options,
		commands: [tdInvoke],
		commandsFor: (settings) => [tdInvokeCommand(expandMethods(settings.methods))],
	})
