/// <reference lib="dom" />
import type { Ctx, Page } from '../../context'
import { button, field, fieldValue, fill, form, h, input } from '../../dom'
import type { ApiKey, CreatedKey } from '../../rest-types'
import { allOrSome, chosen, type KeyChoices, loadChoices, scopesInWords } from './key-scopes'
import type { Notice } from './ui'
import { call, cell, confirmInline, copyBox, emptyState, notice, quoted, say, stackTable, when } from './ui'

/**
 * Owners: the company's API keys (docs/operator.md#api-keys). Create one with its scopes (the key is
 * shown this once, with a copy button), list them with their scopes in words and their last use,
 * revoke one after a confirmation. The same REST routes an owner's script would use.
 */

const BASE = '/api/keys/'
const LABELS = { name: 'Name', expires_at: 'Expiry', userbot_ids: 'Userbots', groups: 'Command groups' }

/** The end of the chosen day, the reader's time: a key “until 1 June” works all of 1 June. */
const endOfDay = (day: string) => {
	const [y, m, d] = day.split('-').map(Number)
	return new Date(y ?? 0, (m ?? 1) - 1, d ?? 1, 23, 59, 59).toISOString()
}

/** What the sections do to the page: say how it went, read the list again. */
interface KeysHost {
	status: Notice
	refresh(): Promise<void>
}

/** A key's row: its name and prefix, its scopes in words, its dates, and Revoke after a question. */
function keyRow(k: ApiKey, names: ReadonlyMap<number, string>, host: KeysHost): HTMLTableRowElement {
	const { status } = host
	const actions = cell('')
	const revoke = button('Revoke', { 'data-revoke-key': String(k.id), 'aria-label': `Revoke ${k.name}` }, () =>
		confirmInline(
			actions,
			`Revoke ${quoted(k.name)}? Whatever uses it is refused at once.`,
			'Revoke the key',
			{ 'data-confirm-revoke': String(k.id) },
			async () => {
				const answer = await call('DELETE', `${BASE}${k.id}/`)
				if (answer.ok)
					status.ok(
						`The key ${quoted(k.name)} is revoked: it no longer works and its connections are closed.`,
					)
				else status.fail(say(answer))
				await host.refresh()
			},
		),
	)
	actions.appendChild(revoke)
	return h(
		'tr',
		{ attrs: { 'data-key': String(k.id) } },
		cell(
			'Name',
			h('span', { class: 'co-who' }, k.name),
			h('br'),
			h('small', { class: 'muted' }, `${k.prefix}…`),
		),
		cell('What it may do', h('span', { attrs: { 'data-scopes': '' } }, scopesInWords(k.scopes, names))),
		cell('Created', when(k.created_at)),
		cell('Last used', h('span', { attrs: { 'data-last-used': '' } }, when(k.last_used_at, 'never'))),
		cell('Expires', when(k.expires_at, 'never')),
		actions,
	)
}

/** The new key, this once, with its copy box and a button that hides it. */
function showNewKey(created: HTMLElement, name: string, secret: string): void {
	fill(
		created,
		h('h3', null, `Your new key ${quoted(name)}`),
		h(
			'p',
			{ class: 'co-warning', attrs: { role: 'alert' } },
			'Copy this key now and keep it where your server can read it. It will not be shown again: only its first characters are kept in view.',
		),
		copyBox('The new API key', secret, { 'data-key-secret': '' }),
		button('I have copied it', { 'data-action': 'hide-key' }, () => fill(created)),
	)
	created.focus()
}

/** The create form's body, or the sentence that says what is missing. */
function keyBody(f: HTMLFormElement): { body: Record<string, unknown> } | { missing: string } {
	const userbots = chosen(f, 'userbots')
	const groups = chosen(f, 'groups')
	if (userbots?.length === 0) return { missing: 'Tick at least one userbot, or choose every userbot.' }
	if (groups?.length === 0) return { missing: 'Tick at least one group, or choose every command.' }
	const day = fieldValue(f, 'expires')
	return {
		body: {
			name: fieldValue(f, 'name').trim(),
			...(day ? { expires_at: endOfDay(day) } : {}),
			...(userbots ? { userbot_ids: userbots.map(Number) } : {}),
			...(groups ? { groups } : {}),
			read_only: (f.elements.namedItem('read_only') as HTMLInputElement).checked,
			webhooks: (f.elements.namedItem('webhooks') as HTMLInputElement).checked,
			td_invoke: (f.elements.namedItem('td_invoke') as HTMLInputElement).checked,
		},
	}
}

const checkbox = (name: string, label: string) =>
	h('label', { class: 'co-check' }, h('input', { attrs: { type: 'checkbox', name } }), label)

/** The create form: a name, an expiry, which userbots and commands, read only, webhooks, td_invoke. */
function createKeyForm(choices: KeyChoices, created: HTMLElement, host: KeysHost): HTMLFormElement {
	const { status } = host
	return form(
		'create-key',
		async (f) => {
			const read = keyBody(f)
			if ('missing' in read) return status.fail(read.missing)
			const answer = await call<CreatedKey>('POST', BASE, read.body)
			if (!answer.ok) return status.fail(say(answer, LABELS))
			status.ok(`The key ${quoted(answer.data.name)} is created.`)
			showNewKey(created, answer.data.name, answer.data.key)
			f.reset()
			for (const set of f.querySelectorAll<HTMLElement>('[data-choices]')) set.hidden = true
			await host.refresh()
		},
		field('Name (which server or script uses it)', input('name', { required: '', maxlength: '100' })),
		field('Expires after (optional; empty: never)', input('expires', { type: 'date' })),
		allOrSome(
			'userbots',
			'Which userbots',
			'Every userbot, now and later',
			'Only these',
			choices.userbots,
			'The company has no userbot yet; add one on the Userbots page to limit a key to it.',
		),
		allOrSome('groups', 'Which commands', 'Every command', 'Only these groups', choices.groups, ''),
		checkbox('read_only', 'Read only: it can look, not change'),
		checkbox('webhooks', 'May manage the webhooks'),
		checkbox('td_invoke', 'May send any TDLib method the operator allows (td_invoke)'),
		button('Create the key'),
	)
}

export function keysPage(_ctx: Ctx): Page {
	const rows = h('tbody')
	const list = h('div', { attrs: { 'data-key-list': '' } })
	const created = h('div', { attrs: { 'data-created-key': '', tabindex: '-1' } })
	const status = notice()
	const formSlot = h('div')
	let choices: KeyChoices = { userbots: [], groups: [] }

	const refresh = async () => {
		const answer = await call<ApiKey[]>('GET', BASE)
		if (!answer.ok) return status.fail(say(answer))
		const names = new Map(choices.userbots.map((b) => [Number(b.value), b.label]))
		if (answer.data.length === 0) {
			return fill(
				list,
				emptyState(
					'keys',
					'No API keys yet.',
					'Create one above for each server or script that calls the gateway, with only the userbots and commands it needs. Revoke it here when that server no longer needs it.',
				),
			)
		}
		fill(rows, ...answer.data.map((k) => keyRow(k, names, host)))
		fill(list, stackTable(['Name', 'What it may do', 'Created', 'Last used', 'Expires', 'Actions'], rows))
	}
	const host: KeysHost = { status, refresh }

	void (async () => {
		choices = await loadChoices()
		fill(formSlot, createKeyForm(choices, created, host))
		await refresh()
	})()
	return {
		element: h(
			'div',
			{ class: 'page co-page', attrs: { 'data-page': 'keys' } },
			h(
				'section',
				{ class: 'card' },
				h('h2', null, 'Create an API key'),
				h(
					'p',
					{ class: 'co-intro' },
					'A key lets a server call the gateway as you, without your password, limited to what you choose here. Send it in the X-Api-Key header.',
				),
				formSlot,
				created,
				status,
			),
			h('section', { class: 'card' }, h('h2', null, 'API keys'), list),
		),
	}
}
