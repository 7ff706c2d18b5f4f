/// <reference lib="dom" />
import { api } from '../api'
import type { Ctx, Page } from '../context'
import { button, type Child, field, fieldValue, fill, form, h, input, statusLine } from '../dom'
import { emptyState, say } from './company/ui'

/**
 * Owners: the company's webhook endpoints (docs/webhooks.md). Make one (its signing secret shown
 * this once), send it a test event, see its deliveries with their attempts, replay stored events,
 * delete it. Everything goes through the same REST routes an owner's script would use.
 */
interface Endpoint {
	id: number
	url: string
	description: string
	events: string[]
	userbot_ids: number[] | null
	enabled: boolean
	secret?: string
}

interface Delivery {
	id: number
	message_id: string
	type: string
	userbot_id: number
	seq: number
	status: string
	attempts: number
	next_attempt_at: string | null
	last_attempt_at: string | null
	last_response_code: number | null
	last_error: string | null
}

const BASE = '/api/webhooks/'
/** A table that scrolls sideways on a narrow screen instead of widening the page. */
const wide = (...children: Child[]) => h('div', { class: 'scroll-x' }, h('table', null, ...children))
const head = (...titles: string[]) => h('thead', null, h('tr', null, ...titles.map((t) => h('th', null, t))))

export function webhooksPage(_ctx: Ctx): Page {
	const rows = h('tbody')
	const endpoints = h('div', { attrs: { 'data-webhook-list': '' } })
	const created = h('div', { attrs: { 'data-created-webhook': '' } })
	const detail = h('section', { class: 'card', attrs: { 'data-webhook-detail': '' } })
	const status = statusLine()

	const refresh = async () => {
		const answer = await api<Endpoint[]>('GET', BASE)
		if (!answer.ok) return status.show(say(answer), true)
		if (answer.data.length === 0) {
			return fill(
				endpoints,
				emptyState(
					'webhooks',
					'No webhook endpoints yet.',
					'Add the address of a server that should receive the updates of your userbots as signed HTTP requests; send it a test event from here to check it.',
				),
			)
		}
		fill(endpoints, wide(head('id', 'url', 'state', ''), rows))
		fill(
			rows,
			...answer.data.map((e) =>
				h(
					'tr',
					{ attrs: { 'data-webhook': String(e.id), 'data-enabled': String(e.enabled) } },
					h('td', null, String(e.id)),
					h(
						'td',
						{ class: 'url' },
						e.url,
						e.description ? h('small', { class: 'muted' }, ` ${e.description}`) : null,
					),
					h('td', null, e.enabled ? 'on' : h('span', { class: 'error' }, 'disabled')),
					h(
						'td',
						null,
						button('Deliveries', { 'data-deliveries': String(e.id) }, () => void show(e)),
						button('Delete', { 'data-delete': String(e.id) }, async () => {
							if (!confirm(`Delete the endpoint ${e.url}?`)) return
							const r = await api('DELETE', `${BASE}${e.id}/`)
							if (!r.ok) return status.show(say(r), true)
							fill(detail)
							await refresh()
						}),
					),
				),
			),
		)
	}

	/** One endpoint's deliveries, newest first, with test and replay. */
	const show = async (e: Endpoint) => {
		const list = h('tbody')
		const table = h('div')
		const note = statusLine()
		const load = async () => {
			const answer = await api<Delivery[]>('GET', `${BASE}${e.id}/deliveries/?limit=50`)
			if (!answer.ok) return note.show(say(answer), true)
			fill(
				table,
				answer.data.length === 0
					? emptyState(
							'deliveries',
							'Nothing delivered to this endpoint yet.',
							'Send a test event, or wait for an update of a userbot it listens to.',
						)
					: wide(
							head(
								'type',
								'userbot #seq',
								'status',
								'attempts',
								'last code',
								'last attempt',
								'next',
								'error',
							),
							list,
						),
			)
			fill(
				list,
				...answer.data.map((d) =>
					h(
						'tr',
						{ attrs: { 'data-delivery': String(d.id), 'data-status': d.status } },
						h('td', null, d.type),
						h('td', null, d.userbot_id ? `${d.userbot_id} #${d.seq}` : ''),
						h('td', null, d.status),
						h('td', { attrs: { 'data-attempts': '' } }, String(d.attempts)),
						h('td', null, d.last_response_code === null ? '' : String(d.last_response_code)),
						h('td', null, d.last_attempt_at ?? ''),
						h('td', null, d.status === 'pending' ? (d.next_attempt_at ?? '') : ''),
						h('td', { class: 'url' }, d.last_error ?? ''),
					),
				),
			)
		}
		const replay = form(
			'replay-webhook',
			async (f) => {
				const body: Record<string, number> = {}
				for (const name of ['after_seq', 'userbot_id']) {
					const value = fieldValue(f, name).trim()
					if (value !== '') body[name] = Number(value)
				}
				const answer = await api<{ replayed: number; truncated: boolean }>(
					'POST',
					`${BASE}${e.id}/replay/`,
					body,
				)
				if (!answer.ok) return note.show(say(answer), true)
				note.show(`Replayed ${answer.data.replayed}${answer.data.truncated ? ' (more matched)' : ''}.`)
				await load()
			},
			field('After seq (optional)', input('after_seq', { inputmode: 'numeric' })),
			field('Userbot id (optional)', input('userbot_id', { inputmode: 'numeric' })),
			button('Replay'),
		)
		fill(
			detail,
			h('h2', { class: 'url' }, `Deliveries to ${e.url}`),
			button('Send a test event', { 'data-action': 'test-webhook' }, async () => {
				const answer = await api('POST', `${BASE}${e.id}/test/`)
				if (!answer.ok) return note.show(say(answer), true)
				note.show('Test event queued.')
				await load()
			}),
			button('Refresh', { 'data-action': 'refresh-deliveries' }, () => void load()),
			replay,
			note,
			table,
		)
		await load()
	}

	const create = form(
		'create-webhook',
		async (f) => {
			const events = fieldValue(f, 'events')
				.split(/[\s,]+/)
				.filter((x) => x !== '')
			const body = {
				url: fieldValue(f, 'url').trim(),
				description: fieldValue(f, 'description').trim(),
				...(events.length > 0 ? { events } : {}),
			}
			const answer = await api<Endpoint>('POST', BASE, body)
			if (!answer.ok) return status.show(say(answer), true)
			const secret = h('input', {
				class: 'secret',
				attrs: { readonly: '', 'aria-label': 'The signing secret', 'data-webhook-secret': '' },
			})
			secret.value = answer.data.secret ?? ''
			fill(
				created,
				h('p', null, 'The signing secret, shown only now: keep it where your receiver can read it.'),
				secret,
			)
			f.reset()
			status.show('')
			await refresh()
		},
		field('URL', input('url', { type: 'url', required: '', placeholder: 'https://example.com/hooks' })),
		field('Events (optional, comma-separated; default: the usual updates)', input('events')),
		field('Description (optional)', input('description')),
		button('Add the endpoint'),
	)
	void refresh()
	return {
		element: h(
			'div',
			{ class: 'page co-page', attrs: { 'data-page': 'webhooks' } },
			h('section', { class: 'card' }, h('h2', null, 'Add a webhook endpoint'), create, created, status),
			h('section', { class: 'card' }, h('h2', null, 'Webhook endpoints'), endpoints),
			detail,
		),
	}
}
