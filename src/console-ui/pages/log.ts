/// <reference lib="dom" />
import type { LogEntry } from '../connection'
import type { Ctx, Page } from '../context'
import { button, fill, h } from '../dom'
import { listUserbots } from './userbots'

/**
 * Everything the channel carried since the console opened it: each `chat_update` (replies and
 * pushes), each live `update`, what was sent, and the socket's opening and closing. Errors in red.
 */
const time = (d: Date) => d.toISOString().slice(11, 23)

export function logLine(entry: LogEntry): HTMLElement {
	return h(
		'li',
		{ class: `log-${entry.kind}${entry.error ? ' error' : ''}`, attrs: { 'data-log': entry.kind } },
		h('time', null, time(entry.at)),
		h('span', { class: 'dir' }, entry.kind === 'in' ? '←' : entry.kind === 'out' ? '→' : '•'),
		h('code', null, entry.text),
	)
}

export function logPage(ctx: Ctx): Page {
	const list = h('ol', { class: 'log', attrs: { 'data-live-log': '' } })
	fill(list, ...(ctx.conn?.log ?? []).map(logLine))
	const stop = ctx.conn?.onLog((entry) => {
		list.appendChild(logLine(entry))
	})
	// Live updates flow only to subscribers: subscribe to every logged-in userbot of the company.
	void listUserbots().then((bots) => {
		for (const b of bots) if (b.authorization_state === 'authorizationStateReady') ctx.conn?.watch(b.id)
	})
	return {
		element: h(
			'div',
			{ class: 'page', attrs: { 'data-page': 'log' } },
			h(
				'section',
				{ class: 'card' },
				h('h2', null, 'Live log'),
				button('Clear', {}, () => fill(list)),
				list,
			),
		),
		dispose: () => stop?.(),
	}
}
