/// <reference lib="dom" />
import { api, errorText } from '../../api'
import { button, fill, h } from '../../dom'
import type { Userbot } from '../../rest-types'
import { healthWords, stateWords } from '../../words'
import { avatar, type Profile } from './profile'
import { cachedProfile, READY, type UserbotsState } from './state'

/**
 * A userbot's card: who it is (the Telegram profile once logged in), its state and health in words,
 * its number and proxy, and its buttons, or the question asked before deleting it.
 */
const HEALTHY = new Set(['active'])
const PASSING = new Set(['cooling_down', 'restarting'])

/** The account's health as a badge and a sentence. */
const healthLine = (health: string) =>
	h(
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

/** The who-row once the profile is read: the photo or initials, the name, the @username. */
const fillProfile = (who: HTMLElement, b: Userbot, profile: Profile, photo: string | null) =>
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

export function userbotCard(s: UserbotsState, b: Userbot): HTMLLIElement {
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
				'aria-current': b.id === s.selected ? 'true' : undefined,
			},
		},
		who,
		h('div', { attrs: { 'data-state-words': '' } }, stateWords(b.authorization_state)),
		health ? healthLine(health) : null,
		h(
			'div',
			{ class: 'muted' },
			`#${b.id}`,
			b.phone_number ? ` · ${b.phone_number}` : '',
			b.proxy ? ` · proxy ${b.proxy.server}:${b.proxy.port}` : '',
		),
		cardButtons(s, b, ready),
	)
	if (ready) {
		void cachedProfile(s, b.id).then(({ profile, photo }) => {
			if (profile) fillProfile(who, b, profile, photo)
		})
	}
	return el
}

/** The question asked before deleting. */
const deleteQuestion = (s: UserbotsState, b: Userbot) =>
	h(
		'div',
		{ class: 'actions confirm', attrs: { role: 'group', 'aria-label': 'Confirm the deletion' } },
		h(
			'p',
			{ class: 'error' },
			`Delete “${b.name || b.id}”? It is logged out of Telegram and its data removed. This cannot be undone.`,
		),
		button('Delete for good', { class: 'danger', 'data-action': 'confirm-delete' }, () => void remove(s, b)),
		button('Keep it', { class: 'secondary', 'data-action': 'cancel-delete' }, () => {
			s.confirming = null
			s.draw()
		}),
	)

/** Log in (or Chats and Commands once logged in), Proxy, Rename, Restart, Log out, Delete. */
function cardButtons(s: UserbotsState, b: Userbot, ready: boolean): HTMLElement {
	if (s.confirming === b.id) return deleteQuestion(s, b)
	const open = s.more.open(b)
	if (open) return open
	return h(
		'div',
		{ class: 'actions' },
		ready
			? h('a', { attrs: { href: `#/chat?userbot=${b.id}` } }, h('span', null, 'Chats'))
			: button(
					b.id === s.selected ? 'Logging in below' : 'Log in',
					{ 'data-select': String(b.id), class: b.id === s.selected ? 'secondary' : '' },
					() => {
						s.selected = b.id
						void s.refresh()
					},
				),
		ready ? h('a', { attrs: { href: `#/commands?userbot=${b.id}` } }, 'Commands') : null,
		button(
			'Proxy',
			{ class: 'secondary', 'data-action': 'proxy', 'aria-expanded': String(s.proxyOf === b.id) },
			() => {
				s.proxyOf = s.proxyOf === b.id ? null : b.id
				s.draw()
			},
		),
		...s.more.buttons(b, ready),
		button('Delete', { class: 'danger', 'data-action': 'delete' }, () => {
			s.confirming = b.id
			s.draw()
		}),
	)
}

async function remove(s: UserbotsState, b: Userbot): Promise<void> {
	const answer = await api('DELETE', `/api/userbots/${b.id}/`)
	s.confirming = null
	if (!answer.ok) s.status.show(errorText(answer), true)
	else s.status.show(`Userbot “${b.name || b.id}” deleted.`)
	if (s.selected === b.id) s.selected = null
	await s.refresh()
}
