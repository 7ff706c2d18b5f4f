import * as v from 'valibot'
import { isAddressOrCidr } from '../http/client-address'

/**
 * One setting of the core or of a plugin: the environment variable it is read from and the valibot
 * schema that checks it, and the schemas settings are written with (`settingTypes`), with the core's
 * messages. The core's own settings (settings.ts) and a plugin's (src/server/plugin/settings.ts) alike.
 */

// The schema's input is whatever the environment or the code hands it; its output is the setting's.
export type AnySchema = v.GenericSchema<unknown, unknown>

export interface Setting<S extends AnySchema = AnySchema> {
	/** The environment variable, as an operator writes it (docs/configuration.md lists them all). */
	env: string
	schema: S
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
	 * names, IP addresses or CIDRs, comma-separated, names lower-cased (src/server/net/address-policy.ts).
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
