/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="dom.asynciterable" />
import { explain } from './words'

/**
 * The one way the console builds its page: elements from tag names, text only as text nodes. No
 * string ever becomes HTML here (nothing in the console parses markup: test/console/text-only.test.ts),
 * so whatever a server, a Telegram account or another user wrote is shown as the characters it is.
 */
export type Child = Node | string | number | null | undefined | false

export interface Props {
	class?: string
	/** Attributes, set with setAttribute (never `on*`: handlers go in `on`). */
	attrs?: Record<string, string | undefined>
	on?: { [K in keyof HTMLElementEventMap]?: (event: HTMLElementEventMap[K]) => void }
}

export function h<K extends keyof HTMLElementTagNameMap>(
	tag: K,
	props: Props | null = null,
	...children: Child[]
): HTMLElementTagNameMap[K] {
	const el = document.createElement(tag)
	if (props?.class) el.className = props.class
	for (const [name, value] of Object.entries(props?.attrs ?? {})) {
		if (value !== undefined) el.setAttribute(name, value)
	}
	for (const [type, handler] of Object.entries(props?.on ?? {})) {
		el.addEventListener(type, handler as EventListener)
	}
	append(el, ...children)
	return el
}

export function append(el: Node, ...children: Child[]): void {
	for (const child of children) {
		if (child === null || child === undefined || child === false) continue
		el.appendChild(typeof child === 'string' || typeof child === 'number' ? text(String(child)) : child)
	}
}

export const text = (s: string) => document.createTextNode(s)

/** Replaces every child of `el`. */
export function fill(el: Node, ...children: Child[]): void {
	while (el.firstChild) el.removeChild(el.firstChild)
	append(el, ...children)
}

/** A labelled input; `name` is its form field and its test handle. */
export function field(label: string, input: HTMLElement): HTMLLabelElement {
	return h('label', { class: 'field' }, h('span', null, label), input)
}

export function input(name: string, attrs: Record<string, string | undefined> = {}): HTMLInputElement {
	return h('input', { attrs: { name, type: 'text', autocomplete: 'off', ...attrs } })
}

/**
 * A status line: messages set with `show`, errors in red and in words (src/console-ui/words.ts), the
 * code they explain kept beside them in small print.
 */
export function statusLine(): HTMLParagraphElement & { show(message: string, error?: boolean): void } {
	const p = h('p', {
		class: 'status',
		attrs: { role: 'status', 'aria-live': 'polite' },
	}) as HTMLParagraphElement & {
		show(message: string, error?: boolean): void
	}
	p.show = (message, error = false) => {
		p.classList.toggle('error', error)
		if (!error || !message) return fill(p, message)
		fill(p, ...explained(message))
	}
	return p
}

/** An error as a sentence, and the code it explains in small print (`data-code`). */
export function explained(message: string): Child[] {
	const { text, code } = explain(message)
	return [
		h('span', { class: 'sentence' }, text),
		code ? h('small', { class: 'code', attrs: { 'data-code': '' } }, code) : null,
	]
}

/** A form whose submit runs `onSubmit` with the button disabled meanwhile. */
export function form(
	name: string,
	onSubmit: (form: HTMLFormElement) => Promise<void> | void,
	...children: Child[]
): HTMLFormElement {
	const f = h('form', { attrs: { name, 'data-form': name } }, ...children)
	f.addEventListener('submit', (event) => {
		event.preventDefault()
		const buttons = [...f.querySelectorAll('button')]
		for (const b of buttons) b.disabled = true
		Promise.resolve(onSubmit(f)).finally(() => {
			for (const b of buttons) b.disabled = false
		})
	})
	return f
}

/** The value of a form's named control. */
export function fieldValue(f: HTMLFormElement, name: string): string {
	const el = f.elements.namedItem(name)
	return el instanceof HTMLInputElement ||
		el instanceof HTMLSelectElement ||
		el instanceof HTMLTextAreaElement
		? el.value
		: ''
}

export const button = (label: string, attrs: Record<string, string> = {}, onClick?: () => void) =>
	h(
		'button',
		{ attrs: { type: onClick ? 'button' : 'submit', ...attrs }, on: onClick ? { click: onClick } : {} },
		label,
	)
