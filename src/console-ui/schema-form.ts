/// <reference lib="dom" />
import { field, h } from './dom'

/**
 * A form from a command's input schema, as the catalog serves it (JSON Schema, defaults included).
 * Each property becomes one control: integers and strings a text box, booleans and enums a list
 * (with "not set"), everything else (TDLib objects, lists, either-or) a JSON box. An empty control
 * is left out of the frame, so the server's defaults and its own "X is required" apply: the form
 * never decides what is valid, the command does.
 */
type Schema = {
	type?: string | string[]
	enum?: unknown[]
	default?: unknown
	description?: string
	anyOf?: Schema[]
	properties?: Record<string, Schema>
	required?: string[]
}

export type FieldKind = 'integer' | 'string' | 'boolean' | 'enum' | 'json'

export interface FormField {
	name: string
	kind: FieldKind
	required: boolean
	options: string[]
	/** Text to prefill (the schema's default, as typed into the control). */
	initial: string
	description: string
	/** JSON boxes: a value that is not JSON is sent as a string when the schema allows one. */
	stringAllowed: boolean
}

const types = (s: Schema): string[] => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : [])

function kindOf(s: Schema): FieldKind {
	const t = types(s)
	if (s.enum && !s.anyOf) return 'enum'
	if (t.includes('integer') && !s.anyOf) return 'integer'
	if (t.length === 1 && t[0] === 'boolean') return 'boolean'
	if (t.length === 1 && t[0] === 'string' && !s.anyOf) return 'string'
	return 'json'
}

export function fieldsOf(schema: Schema): FormField[] {
	const required = new Set(schema.required ?? [])
	return Object.entries(schema.properties ?? {}).map(([name, s]) => {
		const kind = kindOf(s)
		let initial = ''
		if (s.default !== undefined) initial = kind === 'json' ? JSON.stringify(s.default) : String(s.default)
		return {
			name,
			kind,
			required: required.has(name),
			options: (s.enum ?? []).map(String),
			initial,
			description: s.description ?? s.anyOf?.map((a) => a.description).find(Boolean) ?? '',
			stringAllowed: types(s).includes('string') || (s.anyOf ?? []).some((a) => types(a).includes('string')),
		}
	})
}

export interface GeneratedForm {
	element: HTMLElement
	/** The frame's fields, or the first field whose text cannot be read. */
	read(): { input: Record<string, unknown> } | { error: string }
}

export function renderSchemaForm(fields: FormField[]): GeneratedForm {
	const controls = new Map<string, HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>()
	const rows = fields.map((f) => {
		let control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement
		const attrs = { name: f.name, 'data-field': f.name }
		if (f.kind === 'enum' || f.kind === 'boolean') {
			const options = f.kind === 'boolean' ? ['true', 'false'] : f.options
			control = h(
				'select',
				{ attrs },
				h('option', { attrs: { value: '' } }, '(not set)'),
				...options.map((o) => h('option', { attrs: { value: o } }, o)),
			)
		} else if (f.kind === 'json') {
			control = h('textarea', { attrs: { ...attrs, rows: '2', placeholder: 'JSON' } })
		} else {
			control = h('input', {
				attrs: {
					...attrs,
					type: 'text',
					autocomplete: 'off',
					inputmode: f.kind === 'integer' ? 'numeric' : undefined,
				},
			})
		}
		control.value = f.initial
		controls.set(f.name, control)
		const label = `${f.name}${f.required ? ' *' : ''}`
		return h(
			'div',
			{ class: 'schema-field' },
			field(label, control),
			f.description ? h('small', null, f.description) : null,
		)
	})
	return {
		element: h(
			'div',
			{ class: 'schema-form' },
			...(rows.length ? rows : [h('p', { class: 'muted' }, 'No fields.')]),
		),
		read() {
			const input: Record<string, unknown> = {}
			for (const f of fields) {
				const raw = controls.get(f.name)?.value ?? ''
				if (raw.trim() === '') continue
				switch (f.kind) {
					case 'integer': {
						const n = Number(raw.trim())
						// Ids past 2^53 go as strings of digits, which the server reads as integers.
						input[f.name] = /^-?\d+$/.test(raw.trim()) && Number.isSafeInteger(n) ? n : raw.trim()
						break
					}
					case 'boolean':
						input[f.name] = raw === 'true'
						break
					case 'json':
						try {
							input[f.name] = JSON.parse(raw)
						} catch {
							if (!f.stringAllowed) return { error: `${f.name}: not valid JSON` }
							input[f.name] = raw
						}
						break
					default:
						input[f.name] = raw
				}
			}
			return { input }
		},
	}
}
