/// <reference lib="dom" />
import { api, errorText } from '../api'
import type { Ctx, Page } from '../context'
import { button, type Child, field, fieldValue, fill, form, h, input, statusLine } from '../dom'
import type { Userbot } from '../rest-types'
import { userbotCard } from './userbots/card'
import { cardActions } from './userbots/card-actions'
import { listUserbots } from './userbots/list'
import { type Detail, loginSteps } from './userbots/login-steps'
import { proxyPanel } from './userbots/proxy'
import { memoryOf, READY, type UserbotsState } from './userbots/state'

/**
 * The company's userbots as cards: the Telegram profile once logged in (name, @username, photo), the
 * authorization state and the account's health in words, and what can be done with each (log in, its
 * chats and commands, its proxy, rename, restart, log out and delete after a confirmation). The selected one's guided log-in is
 * below the list. Authorization-state and status pushes on the channel refresh the page; the state
 * push also carries what the next step shows (where the code went, its length, the password hint).
 */

/** The proxy panel of the userbot that shows it, and the guided log-in of the selected one. */
async function drawPanel(s: UserbotsState, mine: number): Promise<void> {
	const bot = s.bots.find((b) => b.id === s.selected)
	const proxyBot = s.bots.find((b) => b.id === s.proxyOf)
	const parts: Child[] = []
	if (proxyBot) parts.push(proxyPanel(proxyBot, () => void s.refresh()))
	if (bot && bot.authorization_state !== READY) {
		const steps = await loginSteps(
			s.ctx,
			bot.authorization_state,
			s.details.get(bot.id) ?? {},
			memoryOf(s, bot.id),
			{
				submit: (path, body) => submitStep(s, bot, path, body),
				redraw: () => void drawPanel(s, s.generation),
			},
		)
		parts.push(h('h2', null, `Log in “${bot.name || bot.id}”`), ...steps, s.stepStatus)
	}
	if (mine !== s.generation) return
	fill(s.panel, ...parts)
	s.panel.hidden = parts.length === 0
}

/** One REST step; its error shown in words, then the list read again. */
async function submitStep(s: UserbotsState, bot: Userbot, path: string, body: Record<string, string>) {
	const answer = await api<{ link?: string }>('POST', `/api/userbots/${bot.id}/${path}/`, body)
	if (!answer.ok) {
		s.stepStatus.show(errorText(answer), true)
		return false
	}
	if (path === 'qr' && answer.data.link) memoryOf(s, bot.id).qrLink = answer.data.link
	s.stepStatus.show('')
	await s.refresh()
	return true
}

/** Adds a userbot by its name and selects it for the log-in below. */
const addForm = (s: UserbotsState) =>
	form(
		'add-userbot',
		async (f) => {
			const answer = await api<{ id: number }>('POST', '/api/userbots/', { name: fieldValue(f, 'name') })
			if (!answer.ok) return s.status.show(errorText(answer), true)
			s.status.show(`Userbot added: log it in below.`)
			s.selected = answer.data.id
			f.reset()
			await s.refresh()
		},
		field('Name (for you; Telegram never sees it)', input('name')),
		button('Add a userbot'),
	)

function draw(s: UserbotsState): void {
	fill(s.list, ...s.bots.map((b) => userbotCard(s, b)))
	if (s.bots.length === 0) {
		fill(
			s.list,
			h(
				'li',
				{ class: 'empty', attrs: { 'data-empty': '' } },
				'No userbots yet. Add one below: give it a name, then log it in with a Telegram phone number or a QR code.',
			),
		)
	}
	void drawPanel(s, s.generation)
}

async function refresh(s: UserbotsState): Promise<void> {
	const mine = ++s.generation
	const fresh = await listUserbots()
	// A later refresh started meanwhile: its answer is the newer one.
	if (mine !== s.generation) return
	s.bots = fresh
	s.draw()
	for (const b of s.bots) if (b.authorization_state === READY) s.ctx.conn?.watch(b.id)
}

export function userbotsPage(ctx: Ctx, params: URLSearchParams): Page {
	const s: UserbotsState = {
		ctx,
		bots: [],
		selected: Number(params.get('id') ?? '') || null,
		confirming: null,
		proxyOf: null,
		generation: 0,
		memory: new Map(),
		details: new Map(),
		profiles: new Map(),
		list: h('ul', { class: 'bots', attrs: { 'data-userbots': '' } }),
		panel: h('section', { class: 'card', attrs: { 'data-login-panel': '', 'aria-live': 'polite' } }),
		status: statusLine(),
		stepStatus: statusLine(),
		more: cardActions({
			show: (message, error) => s.status.show(message, error),
			draw: () => s.draw(),
			refresh: () => s.refresh(),
		}),
		draw: () => draw(s),
		refresh: () => refresh(s),
	}

	const stop = ctx.conn?.onEvent((event) => {
		const p = event.payload
		if (p.type === 'authorization_state') {
			const result = (p.result ?? {}) as Detail & { authorization_state?: string }
			if (typeof p.userbot_id === 'number') s.details.set(p.userbot_id, result)
			void s.refresh()
		} else if (p.type === 'userbot_status') void s.refresh()
	})
	void s.refresh()
	return {
		element: h(
			'div',
			{ class: 'page', attrs: { 'data-page': 'userbots' } },
			h(
				'section',
				{ class: 'card' },
				h('h2', null, 'Userbots'),
				s.list,
				s.status,
				h('h3', null, 'Add a userbot'),
				addForm(s),
			),
			s.panel,
		),
		dispose: () => {
			stop?.()
		},
	}
}
