/// <reference lib="dom" />
import { h } from '../../dom'
import type { KeyScopes } from '../../rest-types'
import { call } from './ui'

/**
 * An API key's scopes in people's words, and the choices the creation form offers: the company's
 * userbots by name, the command groups by what they do (from the live catalog, so a plugin's group
 * is offered too).
 */
export interface Choice {
	value: string
	label: string
}

const GROUP_WORDS: Record<string, string> = {
	'commands-messages': 'Messages (send, edit, delete, forward)',
	'commands-chats': 'Chats and contacts (read, join, leave)',
	'commands-sessions': 'Telegram sessions',
	'commands-security': 'Account security (2FA, account lifetime)',
	'commands-members': 'Group members',
	'commands-chat-admin': 'Chat administration and invite links',
	userbots: 'Userbots (add, log in, delete)',
}

/** A group's name in words: known ones described, a plugin's own from its id. */
export function groupName(id: string): string {
	const known = GROUP_WORDS[id]
	if (known) return known
	const words = id.replace(/^commands-/, '').replace(/[-_]+/g, ' ')
	return words.charAt(0).toUpperCase() + words.slice(1)
}

/** What a key may do, in one sentence. */
export function scopesInWords(s: KeyScopes, userbotNames: ReadonlyMap<number, string>): string {
	const parts: string[] = []
	parts.push(
		s.userbot_ids === null
			? 'every userbot'
			: s.userbot_ids.length === 0
				? 'no userbot'
				: `${s.userbot_ids.length === 1 ? 'userbot' : 'userbots'} ${s.userbot_ids
						.map((id) => userbotNames.get(id) ?? `#${id} (deleted)`)
						.join(', ')}`,
	)
	if (s.groups === null && s.commands === null) parts.push('every command')
	else {
		const what = [
			...(s.groups ?? []).map((g) =>
				groupName(g)
					.replace(/ \(.*\)$/, '')
					.toLowerCase(),
			),
			...(s.commands ?? []),
		]
		parts.push(what.length ? `only ${what.join(', ')}` : 'no command')
	}
	if (s.read_only) parts.push('read only')
	if (s.webhooks) parts.push('manages webhooks')
	if (s.td_invoke) parts.push('any TDLib method the operator allows')
	return parts.join('; ')
}

export interface KeyChoices {
	userbots: Choice[]
	groups: Choice[]
}

/** The company's userbots and the app's command groups, for the form and the list. */
export async function loadChoices(): Promise<KeyChoices> {
	const [bots, catalog] = await Promise.all([
		call<Array<{ id: number; name: string }>>('GET', '/api/userbots/'),
		call<{ commands: Array<{ group: string }> }>('GET', '/api/commands/'),
	])
	const userbots = bots.ok && Array.isArray(bots.data) ? bots.data : []
	const groups = catalog.ok && Array.isArray(catalog.data?.commands) ? catalog.data.commands : []
	return {
		userbots: userbots.map((b) => ({ value: String(b.id), label: b.name || `Userbot #${b.id}` })),
		groups: [...new Set(groups.map((c) => c.group))].sort().map((g) => ({ value: g, label: groupName(g) })),
	}
}

/**
 * “All of them” or “only these”, with a box per choice shown for the latter: a fieldset, so a screen
 * reader hears the question with each answer.
 */
export function allOrSome(
	name: string,
	legend: string,
	allLabel: string,
	someLabel: string,
	choices: Choice[],
	empty: string,
): HTMLFieldSetElement {
	const radio = (value: string, label: string, checked: boolean) =>
		h(
			'label',
			null,
			h('input', {
				attrs: { type: 'radio', name: `${name}-mode`, value, checked: checked ? '' : undefined },
			}),
			label,
		)
	const list = h(
		'div',
		{ class: 'co-list', attrs: { 'data-choices': name, hidden: '' } },
		...choices.map((c) =>
			h('label', null, h('input', { attrs: { type: 'checkbox', name, value: c.value } }), c.label),
		),
	)
	const set = h(
		'fieldset',
		{ class: 'co-choices' },
		h('legend', null, legend),
		radio('all', allLabel, true),
		choices.length > 0 ? radio('some', someLabel, false) : h('p', { class: 'muted' }, empty),
		list,
	)
	set.addEventListener('change', () => {
		list.hidden = picked(set, `${name}-mode`) !== 'some'
	})
	return set
}

/** The checked radio's value in a group. */
const picked = (root: HTMLElement, name: string) =>
	root.querySelector<HTMLInputElement>(`input[type=radio][name="${name}"]:checked`)?.value ?? 'all'

/** null for “all”, else the ticked values. */
export function chosen(root: HTMLElement, name: string): string[] | null {
	if (picked(root, `${name}-mode`) !== 'some') return null
	return [...root.querySelectorAll<HTMLInputElement>(`input[type=checkbox][name="${name}"]:checked`)].map(
		(i) => i.value,
	)
}
