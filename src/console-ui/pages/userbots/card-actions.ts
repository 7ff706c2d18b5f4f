/// <reference lib="dom" />
import { api, errorText } from '../../api'
import { button, type Child, field, fieldValue, form, h, input } from '../../dom'

/**
 * A userbot card's Rename (an inline field), Restart, and Log out (Ready only, asked first), over
 * `PATCH /api/userbots/{id}/`, `logout/` and `restart/` (docs/rest.md#userbot-actions). Each says
 * how it went in words on the page's status line; one card at a time shows its field or question.
 */
export interface CardBot {
	id: number
	name: string
}

export interface CardActionHost {
	show(message: string, error?: boolean): void
	/** Draws the cards again from what is known (a field opened or closed). */
	draw(): void
	/** Reads the userbots again, then draws. */
	refresh(): Promise<void>
}

const label = (b: CardBot) => `“${b.name || b.id}”`

/** Runs one action: says how it went, closes any open field or question, reads the userbots again. */
type Run = (
	done: string,
	call: () => Promise<{ ok: boolean; status: number; data: unknown }>,
) => Promise<void>

/** The inline field that stands in for the buttons while renaming. */
function renameForm(b: CardBot, run: Run, close: () => void): HTMLElement {
	const name = input('name', { value: b.name, maxlength: '128', 'data-rename-input': '' })
	const f = form(
		'rename-userbot',
		(el) =>
			run(`Userbot renamed to “${fieldValue(el, 'name').trim() || b.id}”.`, () =>
				api('PATCH', `/api/userbots/${b.id}/`, { name: fieldValue(el, 'name') }),
			),
		field(`New name of ${label(b)}`, name),
		h(
			'div',
			{ class: 'actions' },
			button('Save the name', { 'data-action': 'save-name' }),
			button('Cancel', { class: 'secondary', 'data-action': 'cancel-rename' }, close),
		),
	)
	queueMicrotask(() => name.focus())
	return h('div', { attrs: { 'data-rename': '' } }, f)
}

/** The question asked before logging out. */
const logoutQuestion = (b: CardBot, run: Run, close: () => void) =>
	h(
		'div',
		{ class: 'actions confirm', attrs: { role: 'group', 'aria-label': 'Confirm the log-out' } },
		h(
			'p',
			{ class: 'error' },
			`Log ${label(b)} out of Telegram? Its session ends; the userbot stays, and can be logged in again with a phone number.`,
		),
		button('Log out', { class: 'danger', 'data-action': 'confirm-logout' }, () => {
			void run(`Userbot ${label(b)} logged out of Telegram: it waits for a phone number.`, () =>
				api('POST', `/api/userbots/${b.id}/logout/`),
			)
		}),
		button('Stay logged in', { class: 'secondary', 'data-action': 'cancel-logout' }, close),
	)

export function cardActions(host: CardActionHost) {
	let renaming: number | null = null
	let loggingOut: number | null = null

	const close = () => {
		renaming = null
		loggingOut = null
		host.draw()
	}

	const run: Run = async (done, call) => {
		const answer = await call()
		renaming = null
		loggingOut = null
		if (answer.ok) host.show(done)
		else host.show(errorText(answer), true)
		await host.refresh()
	}

	return {
		/** The field or the question that stands in for the card's buttons, when one is open. */
		open(b: CardBot): HTMLElement | null {
			if (renaming === b.id) return renameForm(b, run, close)
			if (loggingOut === b.id) return logoutQuestion(b, run, close)
			return null
		},
		/** The card's Rename, Restart and (when Ready) Log out buttons. */
		buttons(b: CardBot, ready: boolean): Child[] {
			return [
				button('Rename', { class: 'secondary', 'data-action': 'rename' }, () => {
					renaming = b.id
					loggingOut = null
					host.draw()
				}),
				button('Restart', { class: 'secondary', 'data-action': 'restart' }, () => {
					host.show(`Restarting ${label(b)}…`)
					void run(`Userbot ${label(b)} restarted.`, () => api('POST', `/api/userbots/${b.id}/restart/`))
				}),
				ready
					? button('Log out', { class: 'secondary', 'data-action': 'logout' }, () => {
							loggingOut = b.id
							renaming = null
							host.draw()
						})
					: null,
			]
		},
	}
}
