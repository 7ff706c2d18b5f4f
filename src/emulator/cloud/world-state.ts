import { World } from '../world'
import { BadGraphError, decodeGraph, encodeGraph } from './codec'

/**
 * A world as text and back: every own field of `World` (its records, counters and clock, and the
 * map of every domain's store) through the generic codec. Nothing here names a field or a domain,
 * so what another domain adds persists with no code of its own; `#private` fields (the live
 * clients) are not own enumerable properties, so they stay out.
 */
const FORMAT = 'ubg-emulator-cloud'
const VERSION = 1

export function encodeWorld(world: World): string {
	const fields: Record<string, unknown> = { ...world }
	return JSON.stringify({ format: FORMAT, version: VERSION, world: encodeGraph(fields) })
}

/** What a value is, to check that a decoded field is of the kind a new world holds there. */
const kindOf = (v: unknown) =>
	v instanceof Map
		? 'map'
		: v instanceof Set
			? 'set'
			: Array.isArray(v)
				? 'array'
				: v === null
					? 'null'
					: typeof v

/**
 * The world `encodeWorld` wrote. A field the file lacks (one added since) keeps a new world's
 * value; a field the world no longer has is ignored; a field of another kind than a new world's
 * makes the file unreadable (`BadGraphError`).
 */
export function decodeWorld(text: string): World {
	let parsed: { format?: unknown; version?: unknown; world?: unknown }
	try {
		parsed = JSON.parse(text)
	} catch {
		throw new BadGraphError('not JSON')
	}
	if (parsed?.format !== FORMAT || parsed.version !== VERSION)
		throw new BadGraphError(`not a ${FORMAT} file of version ${VERSION}`)
	const fields = decodeGraph(parsed.world)
	if (kindOf(fields) !== 'object') throw new BadGraphError('the world is not an object')
	const world = new World()
	for (const key of Object.keys(world)) {
		if (!Object.hasOwn(fields as object, key)) continue
		const value = (fields as Record<string, unknown>)[key]
		if (kindOf(value) !== kindOf((world as unknown as Record<string, unknown>)[key]))
			throw new BadGraphError(`the world's ${key} is of another kind`)
		Reflect.set(world, key, value)
	}
	return world
}
