/// <reference lib="dom" />
import { api, errorText } from '../api'
import type { Ctx, Page } from '../context'
import { button, field, fieldValue, fill, form, h, input, statusLine } from '../dom'

/** Owners: invites to the company (create, copy the link, revoke) and members' work statuses. */
interface Invite {
	id: number
	email: string | null
	state: string
	expires_at: string
}

/** The link a new member opens: the token rides in the fragment, which no server ever receives. */
const inviteLink = (token: string) => `${location.origin}/#/register?invite=${encodeURIComponent(token)}`

export function invitesPage(_ctx: Ctx): Page {
	const rows = h('tbody')
	const created = h('div', { attrs: { 'data-created-invite': '' } })
	const status = statusLine()

	const refresh = async () => {
		const answer = await api<Invite[]>('GET', '/accounts/invites/')
		if (!answer.ok) return status.show(errorText(answer), true)
		fill(
			rows,
			...answer.data.map((i) =>
				h(
					'tr',
					{ attrs: { 'data-invite': String(i.id), 'data-state': i.state } },
					h('td', null, String(i.id)),
					h('td', null, i.email ?? '(anyone)'),
					h('td', null, i.state),
					h('td', null, i.expires_at),
					h(
						'td',
						null,
						i.state === 'pending'
							? button('Revoke', { 'data-revoke': String(i.id) }, async () => {
									const r = await api('POST', `/accounts/invites/${i.id}/revoke/`)
									if (!r.ok) status.show(errorText(r), true)
									await refresh()
								})
							: null,
					),
				),
			),
		)
	}

	const create = form(
		'create-invite',
		async (f) => {
			const email = fieldValue(f, 'email').trim()
			const answer = await api<{ token: string }>('POST', '/accounts/invites/', email ? { email } : {})
			if (!answer.ok) return status.show(errorText(answer), true)
			const link = h('input', { attrs: { readonly: '', 'data-invite-link': '', size: '60' } })
			link.value = inviteLink(answer.data.token)
			const copied = statusLine()
			fill(
				created,
				h('p', null, 'Send this link to the new member; it is shown only now.'),
				link,
				button('Copy the link', { 'data-action': 'copy' }, async () => {
					link.select()
					try {
						await navigator.clipboard.writeText(link.value)
						copied.show('Copied.')
					} catch {
						copied.show('Selected: press Ctrl+C to copy.')
					}
				}),
				copied,
			)
			f.reset()
			status.show('')
			await refresh()
		},
		field('E-mail (optional: only this address may use it)', input('email', { type: 'email' })),
		button('Create an invite'),
	)
	void refresh()
	return {
		element: h(
			'div',
			{ class: 'page', attrs: { 'data-page': 'invites' } },
			h('section', { class: 'card' }, h('h2', null, 'Invite a member'), create, created, status),
			h(
				'section',
				{ class: 'card' },
				h('h2', null, 'Invites'),
				h(
					'table',
					null,
					h(
						'thead',
						null,
						h('tr', null, ...['id', 'for', 'state', 'expires', ''].map((t) => h('th', null, t))),
					),
					rows,
				),
			),
		),
	}
}

interface Member {
	id: number
	email: string
	first_name: string
	last_name: string
	is_owner: boolean
	status: { code: string; name: string }
}

export function membersPage(_ctx: Ctx): Page {
	const rows = h('tbody')
	const status = statusLine()
	const refresh = async () => {
		const [members, statuses] = await Promise.all([
			api<Member[]>('GET', '/accounts/members/'),
			api<Array<{ code: string; name: string }>>('GET', '/accounts/statuses/'),
		])
		if (!members.ok) return status.show(errorText(members), true)
		if (!statuses.ok) return status.show(errorText(statuses), true)
		fill(
			rows,
			...members.data.map((m) => {
				const select = h(
					'select',
					{ attrs: { 'data-status-of': String(m.id) } },
					...statuses.data.map((s) => h('option', { attrs: { value: s.code } }, s.name)),
				)
				select.value = m.status.code
				select.addEventListener('change', async () => {
					const answer = await api<Member>('POST', `/accounts/members/${m.id}/status/`, {
						status: select.value,
					})
					if (!answer.ok) return status.show(errorText(answer), true)
					status.show(`${answer.data.email}: ${answer.data.status.name}`)
				})
				return h(
					'tr',
					{ attrs: { 'data-member': String(m.id) } },
					h('td', null, m.email),
					h('td', null, `${m.first_name} ${m.last_name}`.trim()),
					h('td', null, m.is_owner ? 'owner' : 'member'),
					h('td', null, select),
				)
			}),
		)
	}
	void refresh()
	return {
		element: h(
			'div',
			{ class: 'page', attrs: { 'data-page': 'members' } },
			h(
				'section',
				{ class: 'card' },
				h('h2', null, 'Members and work statuses'),
				h(
					'table',
					null,
					h(
						'thead',
						null,
						h('tr', null, ...['e-mail', 'name', 'role', 'work status'].map((t) => h('th', null, t))),
					),
					rows,
				),
				status,
			),
		),
	}
}
