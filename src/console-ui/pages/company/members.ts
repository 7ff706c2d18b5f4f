/// <reference lib="dom" />
import type { Ctx, Page } from '../../context'
import { button, fill, h } from '../../dom'
import type { Member } from '../../rest-types'
import { call, cell, confirmInline, emptyState, type Notice, notice, quoted, say, stackTable } from './ui'

/**
 * Owners: the company's members with their role and work status, and what the REST side lets an
 * owner do to them: set the work status, grant or take back the owner-only permissions, remove a
 * member from the company (after a confirmation).
 */
interface Named {
	code: string
	name?: string
	description?: string
}

const nameOf = (m: Member) => `${m.first_name} ${m.last_name}`.trim() || m.email
/** “Create and delete the company's userbots.” as the end of “may now …”. */
const lower = (s: string) => s.charAt(0).toLowerCase() + s.slice(1).replace(/\.$/, '')

/** What a row does to the page: say how it went, read the list again; and who is reading it. */
interface MembersHost {
	status: Notice
	refresh(): Promise<void>
	me: number | undefined
}

/** A member's work status, changed at once when another is chosen. */
function statusSelect(m: Member, statuses: Named[], status: Notice): HTMLSelectElement {
	const select = h(
		'select',
		{ attrs: { 'data-status-of': String(m.id), 'aria-label': `Work status of ${nameOf(m)}` } },
		...statuses.map((s) => h('option', { attrs: { value: s.code } }, s.name ?? s.code)),
	)
	select.value = m.status.code
	select.addEventListener('change', async () => {
		const answer = await call<Member>('POST', `/accounts/members/${m.id}/status/`, { status: select.value })
		if (!answer.ok) {
			select.value = m.status.code
			return status.fail(say(answer))
		}
		m.status = answer.data.status
		const stops =
			answer.data.status.allows_work === false ? ' They cannot use the gateway until it changes.' : ''
		status.ok(`The work status of ${nameOf(m)} is now ${answer.data.status.name}.${stops}`)
	})
	return select
}

/** The owner-only permissions as boxes to tick, loaded when opened. */
function grants(m: Member, permissions: Named[], status: Notice): HTMLDetailsElement {
	const boxes = h('div')
	const details = h('details', { class: 'co-grants' }, h('summary', null, 'Permissions'), boxes)
	details.addEventListener('toggle', async () => {
		if (!details.open || boxes.childElementCount > 0) return
		const answer = await call<Array<{ permission: string }>>('GET', `/accounts/members/${m.id}/grants/`)
		if (!answer.ok) return status.fail(say(answer))
		const held = new Set(answer.data.map((g) => g.permission))
		fill(
			boxes,
			...permissions.map((p) => {
				const box = h('input', {
					attrs: { type: 'checkbox', 'data-grant': p.code, checked: held.has(p.code) ? '' : undefined },
				})
				box.addEventListener('change', async () => {
					const on = box.checked
					const answer = on
						? await call('POST', `/accounts/members/${m.id}/grants/`, { permission: p.code })
						: await call('DELETE', `/accounts/members/${m.id}/grants/${p.code}/`)
					if (!answer.ok) {
						box.checked = !on
						return status.fail(say(answer))
					}
					const what = lower(p.description ?? p.code)
					status.ok(on ? `${nameOf(m)} may now ${what}.` : `${nameOf(m)} may no longer ${what}.`)
				})
				return h('label', { class: 'co-check' }, box, p.description ?? p.code)
			}),
		)
	})
	return details
}

/** A member's row: e-mail, name, role, work status, permissions, and Remove after a question. */
function memberRow(
	m: Member,
	statuses: Named[],
	permissions: Named[],
	host: MembersHost,
): HTMLTableRowElement {
	const { status } = host
	const actions = cell('')
	if (!m.is_owner) {
		actions.appendChild(
			button('Remove', { 'data-remove-member': String(m.id), 'aria-label': `Remove ${nameOf(m)}` }, () =>
				confirmInline(
					actions,
					`Remove ${nameOf(m)} from the company? Their sessions end now; their userbots stay.`,
					'Remove the member',
					{ 'data-confirm-remove': String(m.id) },
					async () => {
						const answer = await call('DELETE', `/accounts/members/${m.id}/`)
						if (answer.ok) status.ok(`${nameOf(m)} is no longer a member of the company.`)
						else status.fail(say(answer))
						await host.refresh()
					},
				),
			),
		)
	}
	const you = m.id === host.me ? ' (you)' : ''
	return h(
		'tr',
		{ attrs: { 'data-member': String(m.id) } },
		cell('E-mail', m.email),
		cell('Name', `${m.first_name} ${m.last_name}`.trim()),
		cell('Role', `${m.is_owner ? 'Owner' : 'Member'}${you}`),
		cell('Work status', statusSelect(m, statuses, status)),
		cell('Permissions', m.is_owner ? 'Everything' : grants(m, permissions, status)),
		actions,
	)
}

export function membersPage(ctx: Ctx): Page {
	const rows = h('tbody')
	const list = h('div', { attrs: { 'data-member-list': '' } })
	const status = notice()

	const refresh = async () => {
		const [members, statuses, permissions] = await Promise.all([
			call<Member[]>('GET', '/accounts/members/'),
			call<Named[]>('GET', '/accounts/statuses/'),
			call<Named[]>('GET', '/accounts/permissions/'),
		])
		const failed = [members, statuses, permissions].find((a) => !a.ok)
		if (failed) return status.fail(say(failed))
		fill(rows, ...members.data.map((m) => memberRow(m, statuses.data, permissions.data, host)))
		fill(
			list,
			stackTable(['E-mail', 'Name', 'Role', 'Work status', 'Permissions', 'Actions'], rows),
			members.data.length <= 1
				? emptyState(
						'members',
						'You are the only member so far.',
						'Invite the people who work with you from the ',
						h('a', { attrs: { href: '#/invites' } }, 'Invites page'),
						': each gets a link to register into the company.',
					)
				: null,
		)
	}
	const host: MembersHost = { status, refresh, me: ctx.me?.id }
	void refresh()
	return {
		element: h(
			'div',
			{ class: 'page co-page', attrs: { 'data-page': 'members' } },
			h(
				'section',
				{ class: 'card' },
				h('h2', null, 'Members'),
				h(
					'p',
					{ class: 'co-intro' },
					`Everyone in ${ctx.me?.company ? quoted(ctx.me.company.name) : 'the company'}. A work status that does not allow work (on leave, dismissed) stops the member at once.`,
				),
				list,
				status,
			),
		),
	}
}
