import { definePluginSettings, type SettingsValues, setting, settingTypes } from 'userbot-gateway/plugin'
import * as v from 'valibot'

/**
 * Family B's settings (docs/configuration.md), read from the environment when the plugin loads;
 * `apiAccounts({ ... })` given in code overrides them.
 */
export const API_ACCOUNTS_SETTINGS = definePluginSettings({
	/** The main server (a deployment with family A). It is called with passwords: no credentials in its URL (they would reach logs). */
	mainServerUrl: setting(
		'MAIN_SERVER_URL',
		v.optional(
			v.pipe(
				settingTypes.url,
				v.regex(/^https?:\/\//i, 'must start with http:// or https://'),
				// The pipe runs on after a failed `url` check: a value that is no URL is left to that message.
				v.check((s) => {
					const u = URL.parse(s)
					return u === null || (u.username === '' && u.password === '')
				}, 'must not carry a user name or password'),
			),
		),
	),
	/** Milliseconds family B waits for the main server before answering 502. */
	mainServerTimeoutMs: setting('MAIN_SERVER_TIMEOUT', v.optional(settingTypes.int(1, 600_000), '5000')),
})

export type ApiAccountsSettings = SettingsValues<typeof API_ACCOUNTS_SETTINGS>
