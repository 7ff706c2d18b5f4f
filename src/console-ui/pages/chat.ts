/// <reference lib="dom" />
import type { UpdateEvent } from '../../public/client'
import type { Ctx, Page } from '../context'
import { fill, h } from '../dom'
import { listUserbots } from './userbots'

/** A userbot's incoming messages as they arrive: `updateNewMessage` from its live updates. */
type Message = {
	id?: number
	chat_id?: number
	is_outgoing?: boolean
	sender_id?: { user_id?: number; chat_id?: number }
	content?: { _?: string; '@type'?: string; text?: { text?: string }; caption?: { text?: string } }
}

const kind = (o: { _?: string; '@type'?: string } | undefined) => o?._ ?? o?.['@type'] ?? ''

export function chatPage(ctx: Ctx, params: URLSearchParams): Page {
	const select = h('select', { attrs: { name: 'userbot', 'data-select': 'chat-userbot' } })
	const list = h('ul', { class: 'messages', attrs: { 'data-messages': '' } })
	let stop: (() => void) | undefined

	const show = (event: UpdateEvent) => {
		if (kind(event.update) !== 'updateNewMessage') return
		const m = event.update.message as Message | undefined
		if (!m || m.is_outgoing) return
		const sender = m.sender_id?.user_id ?? m.sender_id?.chat_id
		const body = m.content?.text?.text ?? m.content?.caption?.text ?? `(${kind(m.content)})`
		list.prepend(
			h(
				'li',
				{ attrs: { 'data-message': String(m.id ?? '') } },
				h(
					'span',
					{ class: 'meta' },
					`chat ${m.chat_id ?? '?'} · from ${sender ?? '?'} · ${new Date().toLocaleTimeString()}`,
				),
				h('span', { class: 'body' }, body),
			),
		)
	}
	const follow = () => {
		stop?.()
		fill(list)
		const id = Number(select.value)
		list.removeAttribute('data-subscribed')
		if (!id || !ctx.conn) return
		stop = ctx.conn.watch(id, show)
		ctx.conn
			.subscribed(id)
			.then(() => {
				if (Number(select.value) === id) list.setAttribute('data-subscribed', String(id))
			})
			.catch(() => {})
	}
	select.addEventListener('change', follow)

	void listUserbots().then((bots) => {
		const ready = bots.filter((b) => b.authorization_state === 'authorizationStateReady')
		fill(
			select,
			...ready.map((b) =>
				h('option', { attrs: { value: String(b.id) } }, `${b.id}: ${b.name || '(no name)'}`),
			),
		)
		const wanted = params.get('userbot')
		if (wanted && ready.some((b) => String(b.id) === wanted)) select.value = wanted
		follow()
	})
	return {
		element: h(
			'div',
			{ class: 'page', attrs: { 'data-page': 'chat' } },
			h(
				'section',
				{ class: 'card' },
				h('h2', null, 'Incoming messages'),
				h('label', { class: 'field' }, h('span', null, 'Userbot'), select),
				list,
			),
		),
		dispose: () => stop?.(),
	}
}
