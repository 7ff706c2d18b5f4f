import * as v from 'valibot'
import { ConfigError } from '../config/error'
import { isAddressOrCidr } from '../http/client-address'

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

// The schema's input is whatever the environment or the code hands it; its output is the setting's.
type AnySchema = v.GenericSchema<unknown, unknown>

export interface Setting<S extends AnySchema = AnySchema> {
	/** The environment variable, as an operator writes it (docs/configuration.md lists them all). */
	env: string
	schema: S
}

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

/** One setting: the variable it is read from and its schema. */
export function setting<S extends AnySchema>(env: string, schema: S): Setting<S> {
	return { env, schema }
}

const digits = v.pipe(v.string(), v.regex(/^\d+$/, 'must be a whole number'), v.transform(Number))

const list = v.union(
	[
		v.array(v.string()),
		v.pipe(
			v.string(),
			v.transform((s) =>
				s
					.split(',')
					.map((x) => x.trim())
					.filter(Boolean),
			),
		),
	],
	'must be a comma-separated list',
)

/**
 * Schemas for settings, with the core's messages: each takes the environment's text or, from code,
 * the value itself.
 */
export const settingTypes = {
	/** A whole number from `min` to `max`. */
	int: (min: number, max: number) =>
		v.pipe(
			v.union([digits, v.pipe(v.number(), v.integer('must be a whole number'))], 'must be a whole number'),
			v.minValue(min, `must be at least ${min}`),
			v.maxValue(max, `must be at most ${max}`),
		),
	/** `1/0`, `true/false`, `yes/no`. */
	bool: v.union(
		[
			v.boolean(),
			v.pipe(
				v.picklist(['1', '0', 'true', 'false', 'yes', 'no'], 'must be true or false'),
				v.transform((s) => s === '1' || s === 'true' || s === 'yes'),
			),
		],
		'must be true or false',
	),
	/** A comma-separated list (empty entries dropped), or an array of strings. */
	list,
	url: v.pipe(v.string('must be a URL'), v.url('must be a URL')),
	/**
	 * An operator's allow-list of internal places (WEBHOOK_ALLOWED_HOSTS, PROXY_ALLOWED_HOSTS): host
	 * names, IP addresses or CIDRs, comma-separated, names lower-cased (src/net/address-policy.ts).
	 */
	allowedHosts: v.pipe(
		list,
		v.check(
			(entries) => entries.every((e) => isAddressOrCidr(e) || /^[a-z0-9.-]{1,253}$/i.test(e)),
			'must be host names, IP addresses or CIDRs, comma-separated',
		),
		v.transform((entries) => entries.map((h) => h.toLowerCase())),
	),
}
