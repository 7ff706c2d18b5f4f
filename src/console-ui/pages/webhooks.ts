/// <reference lib="dom" />
import type { ApiAnswer } from '../api'
import type { Ctx, Page } from '../context'
import { button, field, fieldValue, fill, form, h, input } from '../dom'
import type { Endpoint, EndpointWithSecret } from '../rest-types'
import {
	call,
	cell,
	confirmInline,
	copyBox,
	emptyState,
	type Notice,
	notice,
	quoted,
	say,
	stackTable,
	when,
} from './company/ui'
import { deliveriesPanel } from './webhooks/deliveries'

/**
 * Owners: the company's webhook endpoints (docs/webhooks.md). Add one (its signing secret shown this
 * once), turn it off and on again, make it a new secret or delete it (both asked first, in place),
 * and open its deliveries. Everything goes through the same REST routes an owner's script would use.
 */
const BASE = '/api/webhooks/'
const LABELS = { url: 'URL', events: 'Events', description: 'Description' }

/** On, or off (since when, if the server turned it off after a day of failures). */
const stateCell = (e: Endpoint) =>
	cell(
		'State',
		e.enabled
			? h('span', { attrs: { 'data-state': 'on' } }, 'On')
			: h(
					'span',
					{ class: 'error', attrs: { 'data-state': 'off' } },
					...(e.disabled_at ? ['Off since ', when(e.disabled_at)] : ['Off']),
				),
	)

/** Whether a rotated-out secret still signs beside the new one, and until when. */
const secretCell = (e: Endpoint) =>
	cell(
		'Signing secret',
		e.previous_secret_expires_at
			? h(
					'span',
					{ attrs: { 'data-previous-secret': '' } },
					'New; the old one also signs until ',
					when(e.previous_secret_expires_at),
				)
			: 'Set',
	)

/** What the sections do to the page. */
interface WebhooksHost {
	/** Runs an action on one endpoint, says how it went, and lists the endpoints again. */
	act(done: string, method: string, path: string, body?: unknown): Promise<ApiAnswer<EndpointWithSecret>>
	showSecret(e: EndpointWithSecret, title: string): void
	openDeliveries(e: Endpoint): void
	closePanel(): void
	status: Notice
	refresh(): Promise<void>
}

/** The new secret, shown this once with a copy button (after adding an endpoint or rotating). */
function showSecret(created: HTMLElement, e: EndpointWithSecret, title: string): void {
	fill(
		created,
		h('h3', null, title),
		h(
			'p',
			{ class: 'co-warning', attrs: { role: 'alert' } },
			'Copy the signing secret now and keep it where your receiver can read it. It will not be shown again.',
		),
		copyBox('The signing secret', e.secret, { 'data-webhook-secret': '' }),
		button('I have copied it', { 'data-action': 'hide-secret' }, () => fill(created)),
	)
	created.focus()
}

/** An endpoint's actions: its deliveries, off or on, a new secret and delete (both asked first). */
function endpointActions(e: Endpoint, host: WebhooksHost): HTMLElement {
	const { act } = host
	const actions = cell('Actions')
	const at = `${BASE}${e.id}/`
	const name = quoted(e.description || e.url)
	actions.append(
		button('Deliveries', { 'data-deliveries': String(e.id), 'aria-label': `Deliveries to ${e.url}` }, () =>
			host.openDeliveries(e),
		),
		e.enabled
			? button(
					'Turn off',
					{ 'data-disable': String(e.id), 'aria-label': `Turn off ${e.url}` },
					() =>
						void act(`${name} is off: its events wait until it is on again.`, 'PATCH', at, {
							enabled: false,
						}),
				)
			: button(
					'Turn on',
					{ 'data-enable': String(e.id), 'aria-label': `Turn on ${e.url}` },
					() => void act(`${name} is on: what waited is sent now.`, 'PATCH', at, { enabled: true }),
				),
		button('New secret', { 'data-rotate': String(e.id), 'aria-label': `New secret for ${e.url}` }, () =>
			confirmInline(
				actions,
				`Make a new signing secret for ${name}? The old one keeps signing beside it for 24 hours.`,
				'Make a new secret',
				{ 'data-confirm-rotate': String(e.id) },
				async () => {
					const answer = await act(`${name} has a new signing secret.`, 'POST', `${at}rotate-secret/`)
					if (answer.ok) host.showSecret(answer.data, `The new signing secret of ${name}`)
				},
			),
		),
		button('Delete', { 'data-delete': String(e.id), 'aria-label': `Delete ${e.url}` }, () =>
			confirmInline(
				actions,
				`Delete ${name}? Its deliveries are deleted with it.`,
				'Delete the endpoint',
				{ 'data-confirm-delete': String(e.id) },
				async () => {
					host.closePanel()
					await act(`${name} is deleted.`, 'DELETE', at)
				},
			),
		),
	)
	return actions
}

/** An endpoint's row: its address and description, events, state, secret, actions. */
const endpointRow = (e: Endpoint, host: WebhooksHost) =>
	h(
		'tr',
		{ attrs: { 'data-webhook': String(e.id), 'data-enabled': String(e.enabled) } },
		cell(
			'Address',
			h('span', { class: 'url' }, e.url),
			e.description ? h('small', { class: 'muted' }, h('br'), e.description) : null,
		),
		cell('Events', e.events.join(', ')),
		stateCell(e),
		secretCell(e),
		endpointActions(e, host),
	)

/** The add form: a URL, the events (the usual ones when empty), a description. */
function createWebhookForm(host: WebhooksHost): HTMLFormElement {
	const { status } = host
	return form(
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
			const answer = await call<EndpointWithSecret>('POST', BASE, body)
			if (!answer.ok) return status.fail(say(answer, LABELS))
			status.ok(`The endpoint ${quoted(answer.data.description || answer.data.url)} is added.`)
			host.showSecret(answer.data, 'Its signing secret')
			f.reset()
			await host.refresh()
		},
		field('URL', input('url', { type: 'url', required: '', placeholder: 'https://example.com/hooks' })),
		field('Events (optional, comma-separated; default: the usual updates)', input('events')),
		field('Description (optional)', input('description')),
		button('Add the endpoint'),
	)
}

export function webhooksPage(_ctx: Ctx): Page {
	const rows = h('tbody')
	const endpoints = h('div', { attrs: { 'data-webhook-list': '' } })
	const created = h('div', { attrs: { 'data-created-webhook': '', tabindex: '-1' } })
	const detail = h('div', { attrs: { 'data-webhook-detail': '' } })
	const status = notice()
	let panel: { dispose(): void } | null = null
	const closePanel = () => {
		panel?.dispose()
		panel = null
		fill(detail)
	}

	const refresh = async () => {
		const answer = await call<Endpoint[]>('GET', BASE)
		if (!answer.ok) return status.fail(say(answer))
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
		fill(rows, ...answer.data.map((e) => endpointRow(e, host)))
		fill(endpoints, stackTable(['Address', 'Events', 'State', 'Signing secret', 'Actions'], rows))
	}

	const host: WebhooksHost = {
		status,
		refresh,
		closePanel,
		showSecret: (e, title) => showSecret(created, e, title),
		openDeliveries(e) {
			closePanel()
			panel = deliveriesPanel(detail, e)
		},
		async act(done, method, path, body) {
			const answer = await call<EndpointWithSecret>(method, path, body)
			if (answer.ok) status.ok(done)
			else status.fail(say(answer, LABELS))
			await refresh()
			return answer
		},
	}
	void refresh()
	return {
		element: h(
			'div',
			{ class: 'page co-page', attrs: { 'data-page': 'webhooks' } },
			h(
				'section',
				{ class: 'card' },
				h('h2', null, 'Add a webhook endpoint'),
				createWebhookForm(host),
				created,
				status,
			),
			h('section', { class: 'card' }, h('h2', null, 'Webhook endpoints'), endpoints),
			detail,
		),
		dispose: () => panel?.dispose(),
	}
}
