/// <reference lib="dom" />
import type { LogEntry } from '../connection'
import type { Ctx, Page } from '../context'
import { button, fill, h } from '../dom'
import { listUserbots } from './userbots/list'

/**
 * Everything the channel carried since the console opened it: each `chat_update` (replies and
 * pushes), each live `update`, what was sent, and the socket's opening and closing. Each line says
 * what it is in a few words (the command or update, the userbot), the frame itself below it; errors
 * in red. A filter keeps the lines holding some text, and one kind (sent, received, errors).
 */
const time = (d: Date) => d.toISOString().slice(11, 23)

/** A frame's few words: `send_message · userbot 3`, `update updateNewMessage · userbot 3`. */
export function summarize(entry: LogEntry): string {
	if (entry.kind === 'conn') return entry.text
	let frame: Record<string, unknown>
	try {
		frame = JSON.parse(entry.text) as Record<string, unknown>
	} catch {
		return 'frame'
	}
	const payload = (frame.payload ?? {}) as Record<string, unknown>
	const update = (frame.update ?? payload.update ?? {}) as Record<string, unknown>
	const what =
		entry.kind === 'out'
			? String(frame.action ?? 'frame')
			: typeof payload.type === 'string'
				? payload.type
				: typeof update._ === 'string'
					? `update ${update._}`
					: String(frame.type ?? 'frame')
	const userbot = frame.userbot_id ?? payload.userbot_id
	const error = typeof payload.error === 'string' ? `: ${payload.error}` : ''
	return `${what}${userbot !== undefined ? ` · userbot ${userbot}` : ''}${error}`
}

export function logLine(entry: LogEntry): HTMLElement {
	return h(
		'li',
		{ class: `log-${entry.kind}${entry.error ? ' error' : ''}`, attrs: { 'data-log': entry.kind } },
		h('time', null, time(entry.at)),
		h(
			'span',
			{ class: 'what' },
			entry.kind === 'in' ? '← ' : entry.kind === 'out' ? '→ ' : '• ',
			summarize(entry),
		),
		h('code', null, entry.text),
	)
}

const KINDS: [value: string, label: string][] = [
	['all', 'Everything'],
	['out', 'Sent'],
	['in', 'Received'],
	['error', 'Errors only'],
]

/** The two filters: a text the line holds, and its kind. */
function logFilters() {
	const text = h('input', {
		attrs: {
			id: 'log-filter',
			type: 'search',
			name: 'filter',
			'data-log-filter': '',
			autocomplete: 'off',
			placeholder: 'a command, an id, a word',
		},
	})
	const kind = h(
		'select',
		{ attrs: { id: 'log-kind', name: 'kind', 'data-log-kind': '' } },
		...KINDS.map(([value, label]) => h('option', { attrs: { value } }, label)),
	)
	const shows = (entry: LogEntry) => {
		const wanted = kind.value
		if (wanted === 'error' ? !entry.error : wanted !== 'all' && entry.kind !== wanted) return false
		const needle = text.value.trim().toLowerCase()
		return (
			!needle || entry.text.toLowerCase().includes(needle) || summarize(entry).toLowerCase().includes(needle)
		)
	}
	return { text, kind, shows }
}

/** The filters' row, with Clear. */
function logTools(filters: ReturnType<typeof logFilters>, clear: () => void): HTMLElement {
	return h(
		'div',
		{ class: 'log-tools' },
		h(
			'label',
			{ class: 'field', attrs: { for: 'log-filter' } },
			h('span', null, 'Show lines with'),
			filters.text,
		),
		h('label', { class: 'field', attrs: { for: 'log-kind' } }, h('span', null, 'Kind'), filters.kind),
		button('Clear', { class: 'secondary' }, clear),
	)
}

export function logPage(ctx: Ctx): Page {
	// Scrolls when long: focusable, so a keyboard can scroll it too.
	const list = h('ol', {
		class: 'log',
		attrs: { 'data-live-log': '', 'aria-label': 'Frames', tabindex: '0' },
	})
	const filters = logFilters()
	const empty = h(
		'p',
		{ class: 'empty', attrs: { 'data-empty': '' } },
		'Nothing yet: run a command, or wait for a logged-in userbot to receive something.',
	)
	const entries: LogEntry[] = [...(ctx.conn?.log ?? [])]
	const draw = () => {
		fill(list, ...entries.filter(filters.shows).map(logLine))
		empty.hidden = entries.length > 0
	}
	filters.text.addEventListener('input', draw)
	filters.kind.addEventListener('change', draw)
	draw()
	const stop = ctx.conn?.onLog((entry) => {
		entries.push(entry)
		empty.hidden = true
		if (filters.shows(entry)) list.appendChild(logLine(entry))
	})
	// Live updates flow only to subscribers: subscribe to every logged-in userbot of the company.
	void listUserbots().then((bots) => {
		for (const b of bots) if (b.authorization_state === 'authorizationStateReady') ctx.conn?.watch(b.id)
	})
	const tools = logTools(filters, () => {
		entries.length = 0
		draw()
	})
	return {
		element: h(
			'div',
			{ class: 'page', attrs: { 'data-page': 'log' } },
			h('section', { class: 'card' }, h('h2', null, 'Live log'), tools, empty, list),
		),
		dispose: () => stop?.(),
	}
}
