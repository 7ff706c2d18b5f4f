import {
	definePluginSettings,
	isTdFunction,
	type SettingsValues,
	setting,
	settingTypes,
} from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { SETS } from './sets'

const isEntry = (entry: string) => (SETS as readonly string[]).includes(entry) || isTdFunction(entry)

/**
 * td_invoke's one setting (docs/configuration.md): the TDLib methods it may send, comma-separated,
 * and the ready sets `read` and `all`. Empty (the default), td_invoke answers `td_invoke is disabled`.
 * A name that is neither a TDLib 1.8.65 method nor a set stops the start (the value is not repeated).
 */
export const TD_INVOKE_SETTINGS = definePluginSettings({
	methods: setting(
		'TD_INVOKE_METHODS',
		v.optional(
			v.pipe(
				settingTypes.list,
				v.check(
					(entries) => entries.every(isEntry),
					`must be TDLib 1.8.65 method names or the sets ${SETS.join(', ')}, comma-separated`,
				),
			),
			'',
		),
	),
})

export type TdInvokeSettings = SettingsValues<typeof TD_INVOKE_SETTINGS>
