/// <reference lib="dom" />
import { type Child, h } from '../../dom'

/**
 * A command's answer for people: its fields as a list of names and values (those not set left out),
 * nested objects as nested lists (two levels; deeper ones as compact JSON), long lists cut to their
 * first items. The raw event, whole, is beside it, one click away.
 */
const MAX_ITEMS = 10
const MAX_DEPTH = 2

const label = (key: string) => key.replaceAll('_', ' ')

function value(v: unknown, depth: number): Child {
	if (v === null || v === undefined) return h('span', { class: 'muted' }, 'none')
	if (typeof v === 'boolean') return v ? 'yes' : 'no'
	if (typeof v === 'string' || typeof v === 'number') return String(v)
	// A formattedText (a message's text) reads as its text.
	if (typeof v === 'object' && !Array.isArray(v) && typeof (v as { text?: unknown }).text === 'string') {
		const t = v as { _?: string; text: string }
		if (t._ === 'formattedText' || Object.keys(t).every((k) => k === '_' || k === 'text' || k === 'entities'))
			return t.text
	}
	if (depth >= MAX_DEPTH) {
		const json = JSON.stringify(v)
		return h('code', null, json.length > 160 ? `${json.slice(0, 160)}…` : json)
	}
	if (Array.isArray(v)) {
		if (v.length === 0) return h('span', { class: 'muted' }, 'empty list')
		if (v.every((x) => typeof x !== 'object' || x === null))
			return v.slice(0, 50).map(String).join(', ') + (v.length > 50 ? ` … (${v.length})` : '')
		return h(
			'ol',
			null,
			...v.slice(0, MAX_ITEMS).map((x) => h('li', null, value(x, depth + 1))),
			v.length > MAX_ITEMS
				? h('li', { class: 'muted' }, `… and ${v.length - MAX_ITEMS} more (see the raw JSON)`)
				: null,
		)
	}
	return fields(v as Record<string, unknown>, depth + 1)
}

/** Zeros, blanks, `false` and empty lists or objects: TDLib's way of saying "not set", left to the raw JSON. */
const isBlank = (v: unknown) =>
	v === null ||
	v === 0 ||
	v === '' ||
	v === false ||
	(Array.isArray(v) && v.length === 0) ||
	(typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0)

function fields(o: Record<string, unknown>, depth: number): HTMLElement {
	const entries = Object.entries(o).filter(
		([k, v]) => k !== '_' && k !== '@type' && k !== '@extra' && !isBlank(v),
	)
	const type = typeof o._ === 'string' ? o._ : typeof o['@type'] === 'string' ? o['@type'] : null
	if (entries.length === 0) return h('span', { class: 'muted' }, type ?? 'nothing')
	return h(
		'dl',
		{ class: 'result' },
		...(type ? [h('dt', null, 'kind'), h('dd', null, type)] : []),
		...entries.flatMap(([k, v]) => [h('dt', null, label(k)), h('dd', null, value(v, depth))]),
	)
}

/** The readable part of a reply: its `result`, or its error said plainly. */
export function readable(payload: { result?: unknown }): HTMLElement {
	const result = payload.result
	if (result === undefined) return h('p', { class: 'muted' }, 'Done; the command answers nothing more.')
	if (result === null || typeof result !== 'object') return h('p', null, value(result, 0))
	return h(
		'div',
		null,
		Array.isArray(result) ? value(result, 0) : fields(result as Record<string, unknown>, 0),
	)
}
