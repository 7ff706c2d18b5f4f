/// <reference lib="dom" />
import type { Ctx, Page } from '../../context'
import { button, field, fieldValue, fill, form, h, input } from '../../dom'
import type { Invite } from '../../rest-types'
import { call, cell, copyBox, emptyState, type Notice, notice, say, stackTable, when } from './ui'

/** Owners: invites to the company (create, copy the link shown this once, list, revoke). */

const STATE_WORDS: Record<string, string> = {
	pending: 'Waiting to be used',
	accepted: 'Used',
	revoked: 'Revoked',
	expired: 'Expired',
}

/** The link a new member opens: the token rides in the fragment, which no server ever receives. */
const inviteLink = (token: string) => `${location.origin}/#/register?invite=${encodeURIComponent(token)}`

/** An invite's row: its number, for whom, its state in words, its expiry, and Revoke while pending. */
function inviteRow(i: Invite, status: Notice, refresh: () => Promise<void>): HTMLTableRowElement {
	const revoke =
		i.state === 'pending'
			? button(
					'Revoke',
					{ 'data-revoke': String(i.id), 'aria-label': `Revoke the invite #${i.id}` },
					async () => {
						const r = await call('POST', `/accounts/invites/${i.id}/revoke/`)
						if (r.ok) status.ok('The invite is revoked: its link no longer works.')
						else status.fail(say(r))
						await refresh()
					},
				)
			: null
	return h(
		'tr',
		{ attrs: { 'data-invite': String(i.id), 'data-state': i.state } },
		cell('Invite', `#${i.id}`),
		cell('For', i.email ?? 'Anyone with the link'),
		cell('State', STATE_WORDS[i.state] ?? i.state),
		cell('Expires', when(i.expires_at)),
		cell('', revoke),
	)
}

export function invitesPage(_ctx: Ctx): Page {
	const rows = h('tbody')
	const list = h('div', { attrs: { 'data-invite-list': '' } })
	const created = h('div', { attrs: { 'data-created-invite': '' } })
	const status = notice()

	const refresh = async () => {
		const answer = await call<Invite[]>('GET', '/accounts/invites/')
		if (!answer.ok) return status.fail(say(answer))
		if (answer.data.length === 0) {
			return fill(
				list,
				emptyState(
					'invites',
					'No invites yet.',
					'Create one above and send its link to the person who should join; leave the e-mail empty to let whoever opens the link register.',
				),
			)
		}
		fill(rows, ...answer.data.map((i) => inviteRow(i, status, refresh)))
		fill(list, stackTable(['Invite', 'For', 'State', 'Expires', 'Actions'], rows))
	}

	const create = form(
		'create-invite',
		async (f) => {
			const email = fieldValue(f, 'email').trim()
			const answer = await call<{ token: string }>('POST', '/accounts/invites/', email ? { email } : {})
			if (!answer.ok) return status.fail(say(answer, { email: 'E-mail' }))
			fill(
				created,
				h(
					'p',
					{ class: 'co-warning' },
					'Send this link to the new member. It is shown only now: copy it before leaving the page.',
				),
				copyBox('The invite link', inviteLink(answer.data.token), { 'data-invite-link': '' }),
			)
			f.reset()
			status.ok(email ? `The invite for ${email} is created.` : 'The invite is created.')
			await refresh()
		},
		field('E-mail (optional: only this address may use it)', input('email', { type: 'email' })),
		button('Create an invite'),
	)
	void refresh()
	return {
		element: h(
			'div',
			{ class: 'page co-page', attrs: { 'data-page': 'invites' } },
			h('section', { class: 'card' }, h('h2', null, 'Invite a member'), create, created, status),
			h('section', { class: 'card' }, h('h2', null, 'Invites'), list),
		),
	}
}
