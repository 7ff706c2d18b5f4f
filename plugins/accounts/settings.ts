import {
	definePluginSettings,
	type Mailer,
	type RestContext,
	type SettingsValues,
	setting,
	settingTypes,
} from 'userbot-gateway/plugin'
import * as v from 'valibot'

/**
 * Family A's settings (docs/configuration.md), read from the environment when the plugin loads;
 * `accounts({ ... })` given in code overrides them. Left out (PLUGINS without `accounts`), none of
 * them is read. The login limit (LOGIN_RATE_*) is the core's: both families count their password
 * logins in one counter (docs/plugins.md#settings, Decision).
 */
export const ACCOUNTS_SETTINGS = definePluginSettings({
	/** `smtp://user:pass@host:port`; unset: mail is written to the log (src/server/auth/mailer.ts). */
	smtpUrl: setting(
		'SMTP_URL',
		v.optional(v.pipe(v.string(), v.regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://'))),
	),
	emailFrom: setting(
		'EMAIL_FROM',
		v.optional(
			v.pipe(v.string(), v.regex(/^[^@\s]+@[^@\s]+$/, 'must be an email address')),
			'no-reply@localhost',
		),
	),
	/** Seconds a password-reset link works. */
	resetTokenLifetime: setting('RESET_TOKEN_LIFETIME', v.optional(settingTypes.int(60, 7 * 86_400), '3600')),
	/** Seconds a company invite works. */
	inviteLifetime: setting(
		'INVITE_LIFETIME',
		v.optional(settingTypes.int(60, 365 * 86_400), String(7 * 86_400)),
	),
	/** Registrations per client address per window: register/ says whether an e-mail is taken. */
	registerRateLimitIp: setting('REGISTER_RATE_LIMIT_IP', v.optional(settingTypes.int(1, 1_000_000), '100')),
	registerRateWindow: setting('REGISTER_RATE_WINDOW', v.optional(settingTypes.int(1, 86_400), '3600')),
	/** Reset requests per e-mail, and per client address (check-password/ on its own counter). */
	resetRateLimitEmail: setting('RESET_RATE_LIMIT_EMAIL', v.optional(settingTypes.int(1, 1_000_000), '3')),
	resetRateLimitIp: setting('RESET_RATE_LIMIT_IP', v.optional(settingTypes.int(1, 1_000_000), '20')),
	resetRateWindow: setting('RESET_RATE_WINDOW', v.optional(settingTypes.int(1, 86_400), '3600')),
})

export type AccountsSettings = SettingsValues<typeof ACCOUNTS_SETTINGS>

/** What family A's routes are built with beyond their context: its settings and its mail. */
export interface AccountsServices {
	settings: AccountsSettings
	mailer: Mailer
}

/** What family A's route handlers get: the REST context and, under `accounts`, the plugin's own services. */
export type AccountsContext = RestContext & { accounts: AccountsServices }
