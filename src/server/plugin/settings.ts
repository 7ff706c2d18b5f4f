import * as v from 'valibot'
import { ConfigError } from '../config/error'
import { type Setting, setting, settingTypes } from '../config/setting'

/**
 * A plugin's own settings (docs/plugins.md#settings): each one declared once, as the environment
 * variable it is read from and the valibot schema that checks it (`v.optional(schema, default)` for
 * a default). The type a plugin reads is the schema's output. The core reads a loaded plugin's
 * settings when the app is made, before anything is opened: a bad value stops the start with one line
 * naming the variable, as the core's own settings do, and a plugin that is not loaded has its
 * variables neither read nor required. Options given in code (`webhooks({ timeoutMs: 2000 })`)
 * override the environment and go through the same schema (the `settingTypes` accept a value as
 * well as its text).
 */

export { type Setting, setting, settingTypes }

export type SettingsShape = Record<string, Setting>
/** The values a plugin reads: each setting's schema output. */
export type SettingsOf<S extends SettingsShape> = { -readonly [K in keyof S]: v.InferOutput<S[K]['schema']> }
/** Options in code: any of the values, over the environment. */
export type SettingsOptions<S extends SettingsShape> = {
	-readonly [K in keyof S]?: v.InferOutput<S[K]['schema']>
}

/** The values of a plugin's declared settings: `SettingsValues<typeof MY_SETTINGS>`. */
export type SettingsValues<P> = P extends PluginSettings<infer S> ? SettingsOf<S> : never

/** What a plugin's settings may need of the core's (a bus, for instance): checked together. */
export interface CoreSettings {
	/** The NATS bus (BUS_URL), when one is configured. */
	bus?: unknown
}

export interface PluginSettings<S extends SettingsShape = SettingsShape> {
	shape: S
	/**
	 * Reads the settings from `env` (empty values count as unset), `options` over it. Throws
	 * ConfigError with one line: `NAME: message`, never the value.
	 */
	read(
		env: Readonly<Record<string, string | undefined>>,
		options?: SettingsOptions<S>,
		core?: CoreSettings,
	): SettingsOf<S>
	/** Every variable these settings read, in declaration order. */
	names(): string[]
}

/**
 * Declares a plugin's settings. `check` relates settings to each other or to the core's: it returns
 * the one line of the refusal (`WEBHOOK_OUTBOX: jetstream needs BUS_URL ...`) or null.
 */
export function definePluginSettings<const S extends SettingsShape>(
	shape: S,
	check?: (values: SettingsOf<S>, core: CoreSettings) => string | null,
): PluginSettings<S> {
	return {
		shape,
		names: () => Object.values(shape).map((s) => s.env),
		read(env, options = {}, core = {}) {
			const values: Record<string, unknown> = {}
			for (const [key, { env: name, schema }] of Object.entries(shape)) {
				const given = (options as Record<string, unknown>)[key]
				const fromEnv = env[name] === '' ? undefined : env[name]
				const parsed = v.safeParse(schema, given !== undefined ? given : fromEnv)
				// The option's key for a value given in code, the variable's name for one from the environment.
				const label = given !== undefined ? `${name} (option ${key})` : name
				if (!parsed.success) throw new ConfigError(`${label}: ${wording(parsed.issues[0])}`)
				values[key] = parsed.output
			}
			const typed = values as SettingsOf<S>
			const refusal = check?.(typed, core) ?? null
			if (refusal !== null) throw new ConfigError(refusal)
			return typed
		},
	}
}

/**
 * An issue's message, unless it quotes the value: valibot's own messages end "but received <value>",
 * and a setting's value may be a secret (a URL with a password, a token). Then what was expected.
 */
function wording(issue: { message: string; expected: string | null; received: string }): string {
	if (!issue.message.includes(issue.received)) return issue.message
	return issue.expected === null ? 'is not valid' : `must be ${issue.expected}`
}
