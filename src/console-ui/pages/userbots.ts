/// <reference lib="dom" />
import { api, errorText } from '../api'
import type { Ctx, Page } from '../context'
import { button, type Child, field, fieldValue, fill, form, h, input, statusLine } from '../dom'
import type { Userbot } from '../rest-types'
import { healthWords, stateWords } from '../words'
import { cardActions } from './userbots/card-actions'
import { listUserbots } from './userbots/list'
import { type Detail, type LoginMemory, loginSteps } from './userbots/login-steps'
import { avatar, loadPhoto, loadProfile, type Profile } from './userbots/profile'
import { proxyPanel } from './userbots/proxy'

/**
 * The company's userbots as cards: the Telegram profile once logged in (name, @username, photo), the
 * authorization state and the account's health in words, and what can be done with each (log in, its
 * chats and commands, its proxy, rename, restart, log out and delete after a confirmation). The selected one's guided log-in is
 * below the list. Authorization-state and status pushes on the channel refresh the page; the state
 * push also carries what the next step shows (where the code went, its length, the password hint).
 */

const READY = 'authorizationStateReady'
const HEALTHY = new Set(['active'])
const PASSING = new Set(['cooling_down', 'restarting'])

export function userbotsPage(ctx: Ctx, params: URLSearchParams): Page {
	let selected = Number(params.get('id') ?? '') || null
	let confirming: number | null = null
	let proxyOf: number | null = null
	const memory = new Map<number, LoginMemory>()
	const details = new Map<number, Detail>()
	const profiles = new Map<number, Promise<{ profile: Profile | null; photo: string | null }>>()
	const list = h('ul', { class: 'bots', attrs: { 'data-userbots': '' } })
	const panel = h('section', { class: 'card', attrs: { 'data-login-panel': '', 'aria-live': 'polite' } })
	const status = statusLine()
	const stepStatus = statusLine()
	let bots: Userbot[] = []
	const more = cardActions({
		show: (message, error) => status.show(message, error),
		draw: () => draw(),
		refresh: () => refresh(),
	})

	const memoryOf = (id: number) => {
		const m = memory.get(id) ?? { phone: '', choice: null, qrLink: null }
		memory.set(id, m)
		return m
	}
	const profileOf = (id: number) => {
		let p = profiles.get(id)
		if (!p) {
			p = loadProfile(ctx, id).then(async (profile) => ({
				profile,
				photo: profile?.photoFileId ? await loadPhoto(id, profile.photoFileId).catch(() => null) : null,
			}))
			profiles.set(id, p)
		}
		return p
	}

	const card = (b: Userbot) => {
		const ready = b.authorization_state === READY
		const who = h(
			'div',
			{ class: 'who-row' },
			avatar(b.name, null),
			h('div', null, h('div', { class: 'name' }, b.name || `Userbot ${b.id}`)),
		)
		const health = b.status ?? ''
		const el = h(
			'li',
			{
				class: 'bot',
				attrs: {
					'data-userbot': String(b.id),
					'data-state': b.authorization_state,
					'data-status': health,
					'aria-current': b.id === selected ? 'true' : undefined,
				},
			},
			who,
			h('div', { attrs: { 'data-state-words': '' } }, stateWords(b.authorization_state)),
			health
				? h(
						'div',
						null,
						h(
							'span',
							{
								class: `badge ${HEALTHY.has(health) ? 'ok' : PASSING.has(health) ? 'warn' : 'error'}`,
								attrs: { title: healthWords(health) },
							},
							health,
						),
						' ',
						h('span', { class: 'muted' }, healthWords(health)),
					)
				: null,
			h(
				'div',
				{ class: 'muted' },
				`#${b.id}`,
				b.phone_number ? ` · ${b.phone_number}` : '',
				b.proxy ? ` · proxy ${b.proxy.server}:${b.proxy.port}` : '',
			),
			actions(b, ready),
		)
		if (ready) {
			void profileOf(b.id).then(({ profile, photo }) => {
				if (!profile) return
				fill(
					who,
					avatar(profile.name || b.name, photo),
					h(
						'div',
						null,
						h('div', { class: 'name', attrs: { 'data-profile-name': '' } }, profile.name || b.name),
						profile.username
							? h('div', { class: 'muted', attrs: { 'data-username': '' } }, `@${profile.username}`)
							: null,
						h('div', { class: 'muted' }, `Userbot “${b.name || b.id}”`),
					),
				)
			})
		}
		return el
	}

	const actions = (b: Userbot, ready: boolean) => {
		if (confirming === b.id) {
			return h(
				'div',
				{ class: 'actions confirm', attrs: { role: 'group', 'aria-label': 'Confirm the deletion' } },
				h(
					'p',
					{ class: 'error' },
					`Delete “${b.name || b.id}”? It is logged out of Telegram and its data removed. This cannot be undone.`,
				),
				button('Delete for good', { class: 'danger', 'data-action': 'confirm-delete' }, () => void remove(b)),
				button('Keep it', { class: 'secondary', 'data-action': 'cancel-delete' }, () => {
					confirming = null
					draw()
				}),
			)
		}
		const open = more.open(b)
		if (open) return open
		return h(
			'div',
			{ class: 'actions' },
			ready
				? h('a', { attrs: { href: `#/chat?userbot=${b.id}` } }, h('span', null, 'Chats'))
				: button(
						b.id === selected ? 'Logging in below' : 'Log in',
						{ 'data-select': String(b.id), class: b.id === selected ? 'secondary' : '' },
						() => {
							selected = b.id
							void refresh()
						},
					),
			ready ? h('a', { attrs: { href: `#/commands?userbot=${b.id}` } }, 'Commands') : null,
			button(
				'Proxy',
				{ class: 'secondary', 'data-action': 'proxy', 'aria-expanded': String(proxyOf === b.id) },
				() => {
					proxyOf = proxyOf === b.id ? null : b.id
					draw()
				},
			),
			...more.buttons(b, ready),
			button('Delete', { class: 'danger', 'data-action': 'delete' }, () => {
				confirming = b.id
				draw()
			}),
		)
	}

	const remove = async (b: Userbot) => {
		const answer = await api('DELETE', `/api/userbots/${b.id}/`)
		confirming = null
		if (!answer.ok) status.show(errorText(answer), true)
		else status.show(`Userbot “${b.name || b.id}” deleted.`)
		if (selected === b.id) selected = null
		await refresh()
	}

	const drawPanel = async (mine: number) => {
		const bot = bots.find((b) => b.id === selected)
		const proxyBot = bots.find((b) => b.id === proxyOf)
		const parts: Child[] = []
		if (proxyBot) parts.push(proxyPanel(proxyBot, () => void refresh()))
		if (bot && bot.authorization_state !== READY) {
			const steps = await loginSteps(
				ctx,
				bot.authorization_state,
				details.get(bot.id) ?? {},
				memoryOf(bot.id),
				{
					submit: (path, body) => submit(bot, path, body),
					redraw: () => void drawPanel(generation),
				},
			)
			parts.push(h('h2', null, `Log in “${bot.name || bot.id}”`), ...steps, stepStatus)
		}
		if (mine !== generation) return
		fill(panel, ...parts)
		panel.hidden = parts.length === 0
	}

	const draw = () => {
		fill(list, ...bots.map(card))
		if (bots.length === 0) {
			fill(
				list,
				h(
					'li',
					{ class: 'empty', attrs: { 'data-empty': '' } },
					'No userbots yet. Add one below: give it a name, then log it in with a Telegram phone number or a QR code.',
				),
			)
		}
		void drawPanel(generation)
	}

	let generation = 0
	const refresh = async () => {
		const mine = ++generation
		const fresh = await listUserbots()
		// A later refresh started meanwhile: its answer is the newer one.
		if (mine !== generation) return
		bots = fresh
		draw()
		for (const b of bots) if (b.authorization_state === READY) ctx.conn?.watch(b.id)
	}

	/** One REST step; its error shown in words, then the list read again. */
	const submit = async (bot: Userbot, path: string, body: Record<string, string>) => {
		const answer = await api<{ link?: string }>('POST', `/api/userbots/${bot.id}/${path}/`, body)
		if (!answer.ok) {
			stepStatus.show(errorText(answer), true)
			return false
		}
		if (path === 'qr' && answer.data.link) memoryOf(bot.id).qrLink = answer.data.link
		stepStatus.show('')
		await refresh()
		return true
	}

	const add = form(
		'add-userbot',
		async (f) => {
			const answer = await api<{ id: number }>('POST', '/api/userbots/', { name: fieldValue(f, 'name') })
			if (!answer.ok) return status.show(errorText(answer), true)
			status.show(`Userbot added: log it in below.`)
			selected = answer.data.id
			f.reset()
			await refresh()
		},
		field('Name (for you; Telegram never sees it)', input('name')),
		button('Add a userbot'),
	)

	const stop = ctx.conn?.onEvent((event) => {
		const p = event.payload
		if (p.type === 'authorization_state') {
			const result = (p.result ?? {}) as Detail & { authorization_state?: string }
			if (typeof p.userbot_id === 'number') details.set(p.userbot_id, result)
			void refresh()
		} else if (p.type === 'userbot_status') void refresh()
	})
	void refresh()
	return {
		element: h(
			'div',
			{ class: 'page', attrs: { 'data-page': 'userbots' } },
			h(
				'section',
				{ class: 'card' },
				h('h2', null, 'Userbots'),
				list,
				status,
				h('h3', null, 'Add a userbot'),
				add,
			),
			panel,
		),
		dispose: () => {
			stop?.()
		},
	}
}
