/// <reference lib="dom" />
import { button, field, fieldValue, fill, form, h, input } from '../../dom'
import type { Delivery, Endpoint, Replayed, TestSent } from '../../rest-types'
import { call, cell, emptyState, type Notice, notice, quoted, say, stackTable, when } from '../company/ui'

const AGAIN_MS = 2_000
const STATUS_WORDS: Record<Delivery['status'], string> = {
	pending: 'Waiting',
	delivered: 'Delivered',
	failed: 'Failed',
}

/** One delivery as a row (a card on a phone). */
const row = (d: Delivery) =>
	h(
		'tr',
		{ attrs: { 'data-delivery': String(d.id), 'data-status': d.status } },
		cell('Event', d.type),
		cell('Userbot #seq', d.userbot_id ? `${d.userbot_id} #${d.seq}` : ''),
		cell('State', STATUS_WORDS[d.status] ?? d.status),
		cell('Attempts', h('span', { attrs: { 'data-attempts': '' } }, String(d.attempts))),
		cell('Last answer', d.last_response_code === null ? '' : String(d.last_response_code)),
		cell('Last attempt', when(d.last_attempt_at, '')),
		cell('Next', d.status === 'pending' ? when(d.next_attempt_at, '') : ''),
		cell('Error', h('span', { class: 'url' }, d.last_error ?? '')),
	)

/** Sends stored events again (after a seq, of one userbot); `done` then reads the list again. */
const replayForm = (at: string, note: Notice, done: () => Promise<void>) =>
	form(
		'replay-webhook',
		async (f) => {
			const body: Record<string, number> = {}
			for (const name of ['after_seq', 'userbot_id']) {
				const value = fieldValue(f, name).trim()
				if (value !== '') body[name] = Number(value)
			}
			const answer = await call<Replayed>('POST', `${at}replay/`, body)
			if (!answer.ok) return note.fail(say(answer, { after_seq: 'After seq', userbot_id: 'Userbot id' }))
			note.ok(`Replayed ${answer.data.replayed}${answer.data.truncated ? ' (more matched)' : ''}.`)
			await done()
		},
		field('After seq (optional)', input('after_seq', { inputmode: 'numeric' })),
		field('Userbot id (optional)', input('userbot_id', { inputmode: 'numeric' })),
		button('Replay'),
	)

/**
 * One endpoint's deliveries, newest first, with a test event and replay. While a delivery waits for
 * its next attempt the list is read again every few seconds, so the page shows it delivered or
 * failed without a click; the timer stops when the panel closes.
 */
export function deliveriesPanel(slot: HTMLElement, e: Endpoint): { dispose(): void } {
	const at = `/api/webhooks/${e.id}/`
	const list = h('tbody')
	const table = h('div')
	const note = notice()
	let timer: ReturnType<typeof setTimeout> | undefined
	let closed = false
	/** The test event just sent (its webhook-id), read again until it is listed. */
	let expecting: string | null = null

	const load = async () => {
		clearTimeout(timer)
		const answer = await call<Delivery[]>('GET', `${at}deliveries/?limit=50`)
		if (closed) return
		if (!answer.ok) return note.fail(say(answer))
		if (answer.data.length === 0) {
			if (expecting) timer = setTimeout(() => void load(), AGAIN_MS)
			return fill(
				table,
				emptyState(
					'deliveries',
					'Nothing delivered to this endpoint yet.',
					'Send a test event, or wait for an update of a userbot it listens to.',
				),
			)
		}
		fill(list, ...answer.data.map(row))
		fill(
			table,
			stackTable(
				['Event', 'Userbot #seq', 'State', 'Attempts', 'Last answer', 'Last attempt', 'Next', 'Error'],
				list,
			),
		)
		if (answer.data.some((d) => d.message_id === expecting)) expecting = null
		if (expecting || answer.data.some((d) => d.status === 'pending'))
			timer = setTimeout(() => void load(), AGAIN_MS)
	}

	fill(
		slot,
		h(
			'section',
			{ class: 'card', attrs: { 'aria-label': `Deliveries to ${e.url}` } },
			h('h2', null, 'Deliveries to ', h('span', { class: 'url' }, quoted(e.description || e.url))),
			h(
				'div',
				{ class: 'actions' },
				button('Send a test event', { 'data-action': 'test-webhook' }, async () => {
					const answer = await call<TestSent>('POST', `${at}test/`)
					if (!answer.ok) return note.fail(say(answer))
					expecting = answer.data.message_id
					note.ok('Test event queued.')
					await load()
				}),
				button('Refresh', { 'data-action': 'refresh-deliveries' }, () => void load()),
			),
			replayForm(at, note, load),
			note,
			table,
		),
	)
	void load()
	return {
		dispose() {
			closed = true
			clearTimeout(timer)
		},
	}
}
