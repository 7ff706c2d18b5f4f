import { resolve } from 'node:path'
import * as v from 'valibot'
import { parseFloodLimits } from '../../runtime/flood/limits'
import { ConfigError } from './error'
import type { Setting } from './setting'

/**
 * The schemas the core's settings are written with (src/server/config/settings.ts), each with its one
 * message, and the reader that turns a shape of settings into values: the `Config` type and the
 * values come from the same declarations.
 */

export const int = (min: number, max: number) =>
	v.pipe(
		v.string(),
		v.regex(/^\d+$/, 'must be a whole number'),
		v.transform(Number),
		v.number(),
		v.minValue(min, `must be at least ${min}`),
		v.maxValue(max, `must be at most ${max}`),
	)

export const bool = v.pipe(
	v.picklist(['1', '0', 'true', 'false', 'yes', 'no'], 'must be true or false'),
	v.transform((s) => s === '1' || s === 'true' || s === 'yes'),
)

export const url = v.pipe(v.string(), v.url('must be a URL'))

export const list = v.pipe(
	v.string(),
	v.transform((s) =>
		s
			.split(',')
			.map((x) => x.trim())
			.filter(Boolean),
	),
)

export const text = v.pipe(v.string(), v.minLength(1, 'must not be empty'))
/** A file a process writes (tests' records): resolved against the working folder at start. */
export const file = v.pipe(
	text,
	v.transform((f) => resolve(f)),
)
export const secret = v.pipe(v.string(), v.minLength(32, 'must be at least 32 characters'))
export const autoOr64 = v.union(
	[v.literal('auto'), int(1, 64)],
	'must be auto or a whole number from 1 to 64',
)
export const seconds = (n: number) => n * 1000

export function floodLimitsValid(value: string): boolean {
	if (value.trim() === 'off') return true
	try {
		parseFloodLimits(value)
		return true
	} catch {
		return false
	}
}

export function emulatorLimitsValid(value: string): boolean {
	try {
		parseFloodLimits(value, ['delay'])
		return true
	} catch {
		return false
	}
}

/** A shape of settings: each field a setting, or a group of them (an object in `Config`). */
export interface Shape {
	[field: string]: Setting | Shape
}

/** The values read from a shape: each setting's schema output, groups as objects. */
export type ValuesOf<S> = {
	-readonly [K in keyof S]: S[K] extends Setting ? v.InferOutput<S[K]['schema']> : ValuesOf<S[K]>
}

const isSetting = (x: Setting | Shape): x is Setting => typeof x.env === 'string' && 'schema' in x

/**
 * Reads a shape from the environment in declaration order (empty values count as unset). The first
 * bad value throws ConfigError with one line: `NAME: message` (the core's messages never quote it).
 */
export function readShape<S extends Shape>(
	shape: S,
	env: Readonly<Record<string, string | undefined>>,
): ValuesOf<S> {
	const values: Record<string, unknown> = {}
	for (const [field, entry] of Object.entries(shape)) {
		if (!isSetting(entry)) {
			values[field] = readShape(entry, env)
			continue
		}
		const given = env[entry.env]
		const parsed = v.safeParse(entry.schema, given === '' ? undefined : given)
		if (!parsed.success) throw new ConfigError(`${entry.env}: ${parsed.issues[0].message}`)
		values[field] = parsed.output
	}
	return values as ValuesOf<S>
}

/** Every variable a shape reads, in declaration order. */
export function variablesOf(shape: Shape): string[] {
	return Object.values(shape).flatMap((entry) => (isSetting(entry) ? [entry.env] : variablesOf(entry)))
}
