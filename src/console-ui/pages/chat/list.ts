/// <reference lib="dom" />
import { fill, h } from '../../dom'
import { fileImage } from './message'
import { type ChatSummary, type Message, type Names, preview, type Run } from './model'

const PAGE = 50

export interface ChatListOptions {
	userbotId: number
	run: Run
	names: Names
	open(chat: ChatSummary): void
}

const initials = (title: string) =>
	title
		.split(/\s+/)
		.filter(Boolean)
		.slice(0, 2)
		.map((w) => w[0]?.toUpperCase())
		.join('')

/** A chat's row: a button with its photo (or initials), title, last message and unread count. */
function chatRow(chat: ChatSummary, active: number, opts: ChatListOptions): HTMLLIElement {
	const unread = chat.unread_count > 0 && chat.id !== active
	return h(
		'li',
		null,
		h(
			'button',
			{
				class: 'ch-chat',
				attrs: {
					type: 'button',
					'data-chat': String(chat.id),
					'aria-current': chat.id === active ? 'true' : undefined,
				},
				on: { click: () => opts.open(chat) },
			},
			chat.photo_file_ids
				? fileImage(opts.userbotId, chat.photo_file_ids.small, '', { class: 'ch-avatar' })
				: h('span', { class: 'ch-avatar', attrs: { 'aria-hidden': 'true' } }, initials(chat.title)),
			h(
				'span',
				{ class: 'ch-chat-text' },
				h('span', { class: 'ch-title', attrs: { 'data-title': '' } }, chat.title),
				h('span', { class: 'ch-last' }, preview(chat.last_message)),
			),
			unread
				? h(
						'span',
						{ class: 'ch-unread', attrs: { 'data-unread': String(chat.unread_count) } },
						String(chat.unread_count),
						h('span', { class: 'ch-hidden' }, ' unread'),
					)
				: null,
		),
	)
}

/**
 * The chat list (get_chats, in the account's order, 50 at a time): each row a button with the chat's
 * photo, title, last message and unread count. New messages move their chat to the top.
 */
export function chatList(opts: ChatListOptions) {
	const chats = new Map<number, ChatSummary>()
	const order: number[] = []
	let active = 0
	let nextOffset = 0
	const items = h('ul', { class: 'ch-chats', attrs: { 'data-chats': '', 'aria-label': 'Chats' } })
	const status = h('p', { class: 'ch-empty', attrs: { role: 'status' } }, 'Loading chats…')
	const more = h(
		'button',
		{ attrs: { type: 'button', 'data-action': 'more-chats', hidden: '' }, on: { click: () => void load() } },
		'More chats',
	)

	const draw = () =>
		fill(items, ...order.map((id) => chats.get(id)).map((c) => (c ? chatRow(c, active, opts) : null)))

	const load = async () => {
		more.disabled = true
		try {
			const page = await opts.run<{ chats: ChatSummary[]; next_offset: number }>('get_chats', {
				offset: nextOffset,
				limit: PAGE,
			})
			for (const chat of page.chats) {
				if (!chats.has(chat.id)) order.push(chat.id)
				chats.set(chat.id, chat)
				opts.names.know(`chat:${chat.id}`, chat.title)
			}
			nextOffset = page.next_offset
			more.hidden = nextOffset === 0
			status.textContent = order.length ? '' : 'No chats yet: this account is in no chat.'
			draw()
		} catch (err) {
			status.textContent = `Could not load the chats: ${err instanceof Error ? err.message : String(err)}`
			status.classList.add('error')
		} finally {
			more.disabled = false
		}
	}

	return {
		element: h(
			'div',
			{ class: 'ch-list-scroll', attrs: { tabindex: '0', 'aria-label': 'Chat list' } },
			status,
			items,
			more,
		),
		load,
		get: (id: number) => chats.get(id),
		setActive(id: number) {
			active = id
			const chat = chats.get(id)
			if (chat) chat.unread_count = 0
			draw()
		},
		/** A new message: the chat goes to the top with it as its last message (read at once when open). */
		arrived(m: Message) {
			const chat = chats.get(m.chat_id)
			if (!chat) return
			chat.last_message = m
			if (!m.is_outgoing && m.chat_id !== active) chat.unread_count++
			order.splice(order.indexOf(m.chat_id), 1)
			order.unshift(m.chat_id)
			draw()
		},
	}
}
export type ChatList = ReturnType<typeof chatList>
