/// <reference lib="dom" />
import { field, h } from './dom'

/**
 * A form from a command's input schema, as the catalog serves it (JSON Schema, defaults included).
 * Each property becomes one control: integers and strings a text box (a chat's id also offers the
 * account's chats, from the `chat-choices` list the runner fills), message text a text area that
 * takes plain text (or a TDLib formattedText as JSON), booleans a switch, enums a list (with "not
 * set"), everything else (TDLib objects, lists, either-or) a JSON box. An empty control (a switch
 * never touched) is left out of the frame, so the server's defaults and its own "X is required"
 * apply: the form never decides what is valid, the command does.
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

export type FieldKind = 'integer' | 'string' | 'text' | 'boolean' | 'enum' | 'json'

/** Properties that hold what a person writes: plain text first, a TDLib formattedText if need be. */
const TEXT_FIELDS = new Set(['text', 'caption', 'message', 'bio', 'description'])
/** Properties that name a chat of the account: a list of its chats is offered. */
const isChatId = (name: string) => name === 'chat_id' || name.endsWith('_chat_id')
/** The `<datalist>` id of the account's chats (filled by the command runner). */
export const CHAT_CHOICES = 'chat-choices'

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
	/** A chat's id: the control offers the account's chats. */
	chatId?: boolean
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
		const stringAllowed =
			types(s).includes('string') || (s.anyOf ?? []).some((a) => types(a).includes('string'))
		const kind = TEXT_FIELDS.has(name) && stringAllowed ? 'text' : kindOf(s)
		let initial = ''
		if (s.default !== undefined) initial = kind === 'json' ? JSON.stringify(s.default) : String(s.default)
		return {
			name,
			kind,
			required: required.has(name),
			options: (s.enum ?? []).map(String),
			initial,
			description: s.description ?? s.anyOf?.map((a) => a.description).find(Boolean) ?? '',
			stringAllowed,
			chatId: kind === 'integer' && isChatId(name),
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
		const control = controlOf(f)
		controls.set(f.name, control)
		const label = `${f.name.replaceAll('_', ' ')}${f.required ? ' (required)' : ''}`
		return h(
			'div',
			{ class: 'schema-field' },
			f.kind === 'boolean'
				? h('label', { class: 'field switch' }, control, h('span', null, label))
				: field(label, control),
			f.description ? h('small', null, f.description) : null,
		)
	})
	return {
		element: h(
			'div',
			{ class: 'schema-form' },
			...(rows.length ? rows : [h('p', { class: 'muted' }, 'This command takes no input: just run it.')]),
		),
		read() {
			const input: Record<string, unknown> = {}
			for (const f of fields) {
				const control = controls.get(f.name)
				if (f.kind === 'boolean' && control instanceof HTMLInputElement) {
					// A switch never touched and with no default leaves the choice to the server.
					if (control.dataset.touched || f.initial !== '') input[f.name] = control.checked
					continue
				}
				const raw = control?.value ?? ''
				if (raw.trim() === '') continue
				const value = readValue(f, raw)
				if (value.error) return { error: value.error }
				input[f.name] = value.value
			}
			return { input }
		},
	}
}

function controlOf(f: FormField): HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement {
	const attrs = { name: f.name, 'data-field': f.name }
	if (f.kind === 'boolean') {
		const box = h('input', { attrs: { ...attrs, type: 'checkbox', role: 'switch' } })
		box.checked = f.initial === 'true'
		box.addEventListener('change', () => {
			box.dataset.touched = 'true'
		})
		return box
	}
	if (f.kind === 'enum') {
		const select = h(
			'select',
			{ attrs },
			h('option', { attrs: { value: '' } }, '(not set)'),
			...f.options.map((o) => h('option', { attrs: { value: o } }, o)),
		)
		select.value = f.initial
		return select
	}
	if (f.kind === 'json' || f.kind === 'text') {
		const area = h('textarea', {
			attrs: {
				...attrs,
				rows: f.kind === 'text' ? '3' : '2',
				placeholder: f.kind === 'json' ? 'JSON' : undefined,
			},
		})
		area.value = f.initial
		return area
	}
	const box = h('input', {
		attrs: {
			...attrs,
			type: 'text',
			autocomplete: 'off',
			inputmode: f.kind === 'integer' ? 'numeric' : undefined,
			list: f.chatId ? CHAT_CHOICES : undefined,
			placeholder: f.chatId ? 'pick a chat or type its id' : undefined,
		},
	})
	box.value = f.initial
	return box
}

function readValue(f: FormField, raw: string): { value?: unknown; error?: string } {
	const trimmed = raw.trim()
	switch (f.kind) {
		case 'integer': {
			const n = Number(trimmed)
			// Ids past 2^53 go as strings of digits, which the server reads as integers.
			return { value: /^-?\d+$/.test(trimmed) && Number.isSafeInteger(n) ? n : trimmed }
		}
		case 'text':
			// Plain text as typed; a TDLib formattedText written as JSON goes as the object.
			if (trimmed.startsWith('{')) {
				try {
					return { value: JSON.parse(trimmed) }
				} catch {}
			}
			return { value: raw }
		case 'json':
			try {
				return { value: JSON.parse(raw) }
			} catch {
				if (!f.stringAllowed) return { error: `${f.name}: not valid JSON` }
				return { value: raw }
			}
		default:
			return { value: raw }
	}
}
