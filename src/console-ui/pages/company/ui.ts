/// <reference lib="dom" />
import { type ApiAnswer, api } from '../../api'
import { button, type Child, fill, h } from '../../dom'
import './company.css'

/**
 * What the company pages (API keys, members, invites, audit log, webhooks) share: REST calls that
 * never throw, answers turned into sentences, empty states, dates, inline confirmations, copy boxes
 * and tables that become stacked cards on a phone.
 */

/** A REST call whose network failure is an answer too (status 0), so every page can say it. */
export async function call<T = unknown>(method: string, path: string, body?: unknown): Promise<ApiAnswer<T>> {
	try {
		return await api<T>(method, path, body)
	} catch {
		return { status: 0, ok: false, data: null as T }
	}
}

const BY_STATUS: Record<number, string> = {
	0: 'The server could not be reached. Check the connection and try again.',
	401: 'Your session has ended. Log in again.',
	403: 'Only the company’s owner can do this.',
	404: 'This is gone already. The list has been refreshed.',
	413: 'That is more than the server accepts.',
	429: 'Too many attempts in a short time. Wait a minute and try again.',
}

/**
 * A failed answer in words: the server's own sentence (`detail`, or each field's message after the
 * field's label), else a sentence for the status. Never a status code or an error code.
 */
export function say(answer: ApiAnswer, labels: Record<string, string> = {}): string {
	const known = BY_STATUS[answer.status]
	if (known && answer.status !== 400) return known
	const data = answer.data
	if (data && typeof data === 'object') {
		const o = data as Record<string, unknown>
		if (typeof o.detail === 'string' && answer.status < 500) return o.detail
		const parts: string[] = []
		for (const [k, v] of Object.entries(o)) {
			if (!Array.isArray(v)) continue
			const words = v.filter((x) => typeof x === 'string').join(' ')
			parts.push(k === 'non_field_errors' ? words : `${labels[k] ?? k.replace(/_/g, ' ')}: ${words}`)
		}
		if (parts.length) return parts.join(' ')
	}
	return answer.status >= 500
		? 'The server could not do it just now. Try again in a moment.'
		: 'That did not work. Reload the page and try again.'
}

export type Notice = HTMLParagraphElement & { ok(message: string): void; fail(message: string): void }

/** A line that announces what happened: success in green, errors in red, read out by screen readers. */
export function notice(): Notice {
	const p = h('p', { class: 'status co-notice', attrs: { role: 'status', 'aria-live': 'polite' } }) as Notice
	const show = (message: string, error: boolean) => {
		p.textContent = message
		p.classList.toggle('error', error)
		p.classList.toggle('ok', !error && message !== '')
	}
	p.ok = (message) => show(message, false)
	p.fail = (message) => show(message, true)
	return p
}

/** What an empty list shows: what it is for and what to do next. */
export function emptyState(name: string, title: string, ...next: Child[]): HTMLElement {
	return h(
		'div',
		{ class: 'co-empty', attrs: { 'data-empty': name } },
		h('strong', null, title),
		h('p', null, ...next),
	)
}

/** A date and time in the reader's own format, with the exact instant for machines. */
export function when(iso: string | null, none = 'never'): Child {
	if (!iso) return none
	const date = new Date(iso)
	if (Number.isNaN(date.getTime())) return none
	return h(
		'time',
		{ attrs: { datetime: iso, title: iso } },
		date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }),
	)
}

/** “name”, quoted the typographic way. */
export const quoted = (s: unknown) => `“${String(s)}”`

/**
 * Asks in place before something that cannot be undone: the cell shows the question with the
 * confirming button focused (Enter confirms, Escape or Cancel puts the buttons back, the focus on
 * the one that asked). The API keys, members and webhooks pages all ask this way, never with the
 * browser's `confirm()`.
 */
export function confirmInline(
	cell: HTMLElement,
	question: string,
	yes: string,
	attrs: Record<string, string>,
	onYes: () => Promise<void>,
): void {
	const before = [...cell.childNodes]
	const asker = document.activeElement
	const restore = () => {
		fill(cell, ...before)
		const back =
			asker instanceof HTMLButtonElement && cell.contains(asker)
				? asker
				: (before.find((n) => n instanceof HTMLButtonElement) as HTMLButtonElement | undefined)
		back?.focus()
	}
	const confirm = button(yes, { class: 'co-danger', ...attrs }, () => {
		confirm.disabled = true
		void onYes()
	})
	const box = h(
		'div',
		{ class: 'co-confirm', attrs: { role: 'group', 'aria-label': question } },
		h('span', null, question),
		confirm,
		button('Cancel', { 'data-action': 'cancel' }, restore),
	)
	box.addEventListener('keydown', (event) => {
		if (event.key === 'Escape') restore()
	})
	fill(cell, box)
	confirm.focus()
}

/** A read-only box with a secret or a link, its Copy button, and what the copy did. */
export function copyBox(label: string, value: string, attrs: Record<string, string>): HTMLElement {
	const box = h('input', { class: 'secret', attrs: { readonly: '', 'aria-label': label, ...attrs } })
	box.value = value
	const said = notice()
	return h(
		'div',
		{ class: 'co-copy' },
		box,
		button('Copy', { 'data-action': 'copy' }, async () => {
			box.select()
			try {
				await navigator.clipboard.writeText(box.value)
				said.ok('Copied to the clipboard.')
			} catch {
				said.ok('Selected: press Ctrl+C (or ⌘C) to copy.')
			}
		}),
		said,
	)
}

/**
 * A table that turns into one card per row on a narrow screen: each cell then shows its column's
 * name before it (`data-label`), so nothing is cut off and nothing scrolls sideways.
 */
export function stackTable(titles: string[], body: HTMLTableSectionElement): HTMLElement {
	return h(
		'div',
		{ class: 'co-scroll' },
		h(
			'table',
			{ class: 'co-table' },
			h('thead', null, h('tr', null, ...titles.map((t) => h('th', { attrs: { scope: 'col' } }, t)))),
			body,
		),
	)
}

/** A cell of a stacking table, labelled with its column's name. */
export const cell = (label: string, ...children: Child[]) =>
	h('td', { attrs: { 'data-label': label } }, ...children)
