import type { FieldKind } from '../../src/runtime/telegram/schema'
import { fieldKind, TD_SCHEMA } from '../../src/runtime/telegram/schema'
import { hostsOf, NEVER_PROBE } from '../../src/runtime/telegram/schema/generate'

/**
 * Requests to feed both real TDLib and the emulator's parser: for every field of every function
 * (and of every constructor, carried inside a function that reaches it), values of each wrong JSON
 * type, integers out of range or badly written, bad base64, objects without `@type`, with an unknown
 * class, a numeric constructor id, or a constructor of another class; plus the well-formed request.
 * Synchronous methods (TDLib runs them at once, some crash on a null object) and the methods the
 * schema probe never sends are left out.
 */
export type Request = Record<string, unknown>

const WRONG_SCALARS: unknown[] = ['abc', true, [], {}, 1.5]

function wrongValues(kind: FieldKind): unknown[] {
	switch (kind.kind) {
		case 'int32':
			return [...WRONG_SCALARS, 2 ** 31, '2147483648', '007', '-0', ' 1', '+1', -(2 ** 31), '9']
		case 'int53':
		case 'int64':
		case 'number':
			return [...WRONG_SCALARS, '9223372036854775808', 2 ** 70, '-9223372036854775808', 2 ** 60, '1e3']
		case 'double':
			return ['1.5', true, [], {}, 2.5]
		case 'string':
			return [5, true, [], {}, '']
		case 'bytes':
			return [5, 'abc', 'YW=j', 'YWJj', '', 'YW-_']
		case 'Bool':
			return ['yes', 'true', '1', 2.5, -1, 4294967296, [], {}]
		case 'vector':
			return [
				5,
				'x',
				{},
				true,
				[null],
				...wrongValues(kind.of)
					.slice(0, 3)
					.map((v) => [v]),
			]
		case 'object': {
			const other = Object.keys(TD_SCHEMA.constructors).find((c) => !membersOf(kind.type).includes(c))
			return [5, 'x', [], {}, { _: 'noSuchClass' }, { _: 5 }, { _: -1 }, { _: true }, { _: other }]
		}
	}
}

const membersOf = (type: string) => TD_SCHEMA.classes[type] ?? (TD_SCHEMA.constructors[type] ? [type] : [])

/** The corpus, in a fixed order; `every` keeps one field in `every` (a smaller run). */
export function buildCorpus(every = 1): Request[] {
	const corpus: Request[] = [
		{ _: 'noSuchMethod' },
		{ _: 'formattedText', text: 'x' },
		{ _: 5 },
		{ _: true },
		{},
	]
	let n = 0
	const take = () => n++ % every === 0
	for (const [fn, def] of Object.entries(TD_SCHEMA.functions)) {
		if (def.synchronous || NEVER_PROBE.has(fn)) continue
		corpus.push({ _: fn })
		for (const [field, type] of Object.entries(def.fields)) {
			if (!take()) continue
			for (const value of wrongValues(fieldKind(type))) corpus.push({ _: fn, [field]: value })
		}
	}
	const hosts = hostsOf(TD_SCHEMA, NEVER_PROBE)
	for (const [ctor, def] of Object.entries(TD_SCHEMA.constructors)) {
		const wrap = hosts.get(ctor)
		if (!wrap) continue
		corpus.push(wrap({ _: ctor }))
		for (const [field, type] of Object.entries(def.fields)) {
			if (!take()) continue
			for (const value of wrongValues(fieldKind(type))) corpus.push(wrap({ _: ctor, [field]: value }))
		}
	}
	return corpus
}
