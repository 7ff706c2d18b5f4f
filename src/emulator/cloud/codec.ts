/**
 * A generic encoding of plain data as JSON, for the emulated cloud's state file: objects, arrays,
 * Maps, Sets, strings, numbers (NaN, ±Infinity and -0 too), booleans, null, undefined and bigints,
 * with shared references and cycles kept (an invite link and the world's group list hold one chat
 * record; decoded, they still do). Anything else (a function, a class instance, a WeakMap, a
 * Promise) is refused with the path where it was found: world stores hold plain data only.
 *
 * Every object, array, Map and Set is one node of a table; a value is a JSON primitive or a tag:
 * `{r: n}` the node n, `{u: 1}` undefined, `{n: 'NaN' | 'Infinity' | '-Infinity' | '-0'}`,
 * `{b: '123'}` a bigint. A node is `['o', key, value, ...]`, `['a', value, ...]`,
 * `['m', key, value, ...]` or `['s', value, ...]`.
 */
export interface EncodedGraph {
	nodes: unknown[][]
	root: unknown
}

export class NotPlainDataError extends Error {
	override name = 'NotPlainDataError'
}

export class BadGraphError extends Error {
	override name = 'BadGraphError'
}

type Tag = 'o' | 'a' | 'm' | 's'

function describe(value: unknown): string {
	if (typeof value === 'function') return 'a function'
	if (typeof value === 'symbol') return 'a symbol'
	const name = (value as object).constructor?.name
	return name ? `a ${name}` : 'an object of another kind'
}

function tagOf(value: object): Tag | undefined {
	if (Array.isArray(value)) return 'a'
	if (value instanceof Map) return 'm'
	if (value instanceof Set) return 's'
	const proto = Object.getPrototypeOf(value)
	return proto === Object.prototype || proto === null ? 'o' : undefined
}

export function encodeGraph(root: unknown): EncodedGraph {
	const nodes: unknown[][] = []
	const seen = new Map<object, number>()
	/** The keys from the root to the value being encoded, for the error that names a bad one. */
	const path: string[] = []

	const value = (v: unknown): unknown => {
		switch (typeof v) {
			case 'string':
			case 'boolean':
				return v
			case 'number':
				if (Number.isNaN(v)) return { n: 'NaN' }
				if (v === Number.POSITIVE_INFINITY) return { n: 'Infinity' }
				if (v === Number.NEGATIVE_INFINITY) return { n: '-Infinity' }
				return Object.is(v, -0) ? { n: '-0' } : v
			case 'undefined':
				return { u: 1 }
			case 'bigint':
				return { b: v.toString() }
			case 'object':
				return v === null ? null : { r: node(v) }
			default:
				throw notPlain(v)
		}
	}

	const notPlain = (v: unknown) =>
		new NotPlainDataError(
			`${path.join('') || 'the root'} is ${describe(v)}: world stores hold plain data only (objects, arrays, Maps, Sets, primitives)`,
		)

	const node = (v: object): number => {
		const known = seen.get(v)
		if (known !== undefined) return known
		const tag = tagOf(v)
		if (!tag) throw notPlain(v)
		const index = nodes.length
		const out: unknown[] = [tag]
		nodes.push(out)
		seen.set(v, index)
		if (tag === 'a') {
			const list = v as unknown[]
			for (let i = 0; i < list.length; i++) {
				path.push(`[${i}]`)
				out.push(value(list[i]))
				path.pop()
			}
		} else if (tag === 'm') {
			for (const [k, item] of v as Map<unknown, unknown>) {
				path.push(`.get(${String(k)})`)
				out.push(value(k), value(item))
				path.pop()
			}
		} else if (tag === 's') {
			path.push('.<item>')
			for (const item of v as Set<unknown>) out.push(value(item))
			path.pop()
		} else {
			for (const k of Object.keys(v)) {
				path.push(`.${k}`)
				out.push(k, value((v as Record<string, unknown>)[k]))
				path.pop()
			}
		}
		return index
	}

	return { root: value(root), nodes }
}

const SPECIAL: Record<string, number> = {
	NaN: Number.NaN,
	Infinity: Number.POSITIVE_INFINITY,
	'-Infinity': Number.NEGATIVE_INFINITY,
	'-0': -0,
}

/**
 * The value `encodeGraph` encoded. Checks the whole table as it goes (a tag it does not know, a
 * reference past the table, an odd number of keys and values): a bad file is a `BadGraphError`,
 * never a half-built world.
 */
export function decodeGraph(input: unknown): unknown {
	const graph = input as Partial<EncodedGraph> | null
	if (typeof graph !== 'object' || graph === null || !Array.isArray(graph.nodes))
		throw new BadGraphError('not an encoded graph')
	const raw = graph.nodes
	// First every container, empty, so that references (cycles included) resolve in one pass.
	const made: object[] = raw.map((n, i) => {
		if (!Array.isArray(n)) throw new BadGraphError(`node ${i} is not a list`)
		switch (n[0]) {
			case 'o':
				return {}
			case 'a':
				return []
			case 'm':
				return new Map()
			case 's':
				return new Set()
			default:
				throw new BadGraphError(`node ${i} has no known kind`)
		}
	})

	const value = (v: unknown): unknown => {
		if (v === null || typeof v === 'string' || typeof v === 'boolean') return v
		if (typeof v === 'number') {
			if (!Number.isFinite(v)) throw new BadGraphError('a number that JSON cannot hold')
			return v
		}
		if (typeof v !== 'object') throw new BadGraphError('a value of no known kind')
		const tag = v as { r?: unknown; u?: unknown; n?: unknown; b?: unknown }
		if (typeof tag.r === 'number') {
			const target = made[tag.r]
			if (!Number.isInteger(tag.r) || target === undefined)
				throw new BadGraphError('a reference past the table')
			return target
		}
		if (tag.u === 1) return undefined
		if (typeof tag.n === 'string' && Object.hasOwn(SPECIAL, tag.n)) return SPECIAL[tag.n]
		if (typeof tag.b === 'string' && /^-?\d+$/.test(tag.b)) return BigInt(tag.b)
		throw new BadGraphError('a tag of no known kind')
	}

	for (const [i, n] of (raw as unknown[][]).entries()) {
		const target = made[i]!
		const kind = n[0]
		if ((kind === 'o' || kind === 'm') && n.length % 2 === 0)
			throw new BadGraphError(`node ${i} has a key without its value`)
		if (kind === 'a') for (let j = 1; j < n.length; j++) (target as unknown[]).push(value(n[j]))
		else if (kind === 's') for (let j = 1; j < n.length; j++) (target as Set<unknown>).add(value(n[j]))
		else if (kind === 'm')
			for (let j = 1; j < n.length; j += 2)
				(target as Map<unknown, unknown>).set(value(n[j]), value(n[j + 1]))
		else
			for (let j = 1; j < n.length; j += 2) {
				const key = n[j]
				if (typeof key !== 'string') throw new BadGraphError(`node ${i} has a key that is no string`)
				// defineProperty: a key named `__proto__` stays a key, never the object's prototype.
				Object.defineProperty(target, key, {
					value: value(n[j + 1]),
					enumerable: true,
					writable: true,
					configurable: true,
				})
			}
	}
	return value(graph.root)
}
