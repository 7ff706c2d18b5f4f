/// <reference lib="dom" />
import type { Ctx, Page } from '../../context'
import { button, field, fieldValue, fill, form, h, input } from '../../dom'
import type { ApiKey, CreatedKey } from '../../rest-types'
import { allOrSome, chosen, type KeyChoices, loadChoices, scopesInWords } from './key-scopes'
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
		fill(rows, ...answer.data.map((k) => row(k, names)))
		fill(list, stackTable(['Name', 'What it may do', 'Created', 'Last used', 'Expires', 'Actions'], rows))
	}

	const row = (k: ApiKey, names: ReadonlyMap<number, string>) => {
		const actions = cell('')
		const revoke = button(
			'Revoke',
			{ 'data-revoke-key': String(k.id), 'aria-label': `Revoke ${k.name}` },
			() =>
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
						await refresh()
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

	const show = (name: string, secret: string) => {
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

	const createForm = () =>
		form(
			'create-key',
			async (f) => {
				const userbots = chosen(f, 'userbots')
				const groups = chosen(f, 'groups')
				if (userbots?.length === 0) return status.fail('Tick at least one userbot, or choose every userbot.')
				if (groups?.length === 0) return status.fail('Tick at least one group, or choose every command.')
				const day = fieldValue(f, 'expires')
				const body = {
					name: fieldValue(f, 'name').trim(),
					...(day ? { expires_at: endOfDay(day) } : {}),
					...(userbots ? { userbot_ids: userbots.map(Number) } : {}),
					...(groups ? { groups } : {}),
					read_only: (f.elements.namedItem('read_only') as HTMLInputElement).checked,
					webhooks: (f.elements.namedItem('webhooks') as HTMLInputElement).checked,
				}
				const answer = await call<CreatedKey>('POST', BASE, body)
				if (!answer.ok) return status.fail(say(answer, LABELS))
				status.ok(`The key ${quoted(answer.data.name)} is created.`)
				show(answer.data.name, answer.data.key)
				f.reset()
				for (const set of f.querySelectorAll<HTMLElement>('[data-choices]')) set.hidden = true
				await refresh()
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
			h(
				'label',
				{ class: 'co-check' },
				h('input', { attrs: { type: 'checkbox', name: 'read_only' } }),
				'Read only: it can look, not change',
			),
			h(
				'label',
				{ class: 'co-check' },
				h('input', { attrs: { type: 'checkbox', name: 'webhooks' } }),
				'May manage the webhooks',
			),
			button('Create the key'),
		)

	void (async () => {
		choices = await loadChoices()
		fill(formSlot, createForm())
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
