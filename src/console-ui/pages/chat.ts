/// <reference lib="dom" />
import type { UpdateEvent } from '../../public/client'
import { api } from '../api'
import type { Ctx, Page } from '../context'
import { fill, h } from '../dom'
import './chat/chat.css'
import { composeBox } from './chat/compose'
import { type Conversation, conversation } from './chat/conversation'
import { type ChatList, chatList } from './chat/list'
import { type ChatSummary, kind, type Message, type Names, nameCache, type Run, runner } from './chat/model'

type Userbot = { id: number; name: string; authorization_state: string }
type OpenChat = { id: number; view: Conversation }

/** The open chat's head: back to the list (narrow screens), and its title. */
const chatHead = (title: string, back: () => void) =>
	h(
		'div',
		{ class: 'ch-chat-head' },
		h(
			'button',
			{ class: 'ch-back', attrs: { type: 'button', 'data-action': 'back' }, on: { click: back } },
			'← Chats',
		),
		h('h2', { attrs: { 'data-chat-title': '' } }, title),
	)

/** The logged-in userbots to choose from, the wanted one chosen when it is there. */
function fillUserbots(select: HTMLSelectElement, bots: Userbot[], wanted: string | null): void {
	const ready = bots.filter((b) => b.authorization_state === 'authorizationStateReady')
	fill(
		select,
		...ready.map((b) => h('option', { attrs: { value: String(b.id) } }, b.name || `Userbot ${b.id}`)),
	)
	if (wanted && ready.some((b) => String(b.id) === wanted)) select.value = wanted
}

/** A live update: a new message to the list and the open chat, a sent or deleted one to the open chat. */
function applyUpdate(event: UpdateEvent, list: ChatList | null, open: OpenChat | null) {
	const u = event.update as {
		_?: string
		message?: Message
		old_message_id?: number
		chat_id?: number
		message_ids?: number[]
		is_permanent?: boolean
	}
	const view = open && (u.message?.chat_id ?? u.chat_id) === open.id ? open.view : null
	switch (kind(u)) {
		case 'updateNewMessage':
			if (!u.message) return
			list?.arrived(u.message)
			view?.upsert(u.message)
			return
		case 'updateMessageSendSucceeded':
		case 'updateMessageSendFailed':
			if (u.message) view?.upsert(u.message, u.old_message_id)
			return
		case 'updateDeleteMessages':
			if (u.is_permanent) view?.remove(u.message_ids ?? [])
	}
}

/**
 * The chat view, as in a messenger: a userbot's chat list beside the open chat (one pane at a time
 * on a narrow screen, with a back button), the history paged back as the user scrolls up, names
 * instead of ids, a compose box, photos through the files route, and new messages live.
 * `#/chat?userbot=1&chat=-2001` opens a chat directly.
 */
export function chatPage(ctx: Ctx, params: URLSearchParams): Page {
	const select = h('select', { attrs: { name: 'userbot', id: 'ch-userbot', 'data-select': 'chat-userbot' } })
	const listPane = h('section', { class: 'ch-list-pane', attrs: { 'aria-label': 'Chats' } })
	const chatPane = h('section', { class: 'ch-chat-pane', attrs: { 'aria-label': 'Conversation' } })
	const app = h('div', { class: 'ch-app', attrs: { 'data-view': 'list' } }, listPane, chatPane)
	let stop: (() => void) | undefined
	let list: ChatList | null = null
	let open: OpenChat | null = null

	const empty = (words: string) => h('p', { class: 'ch-empty' }, words)
	const back = () => {
		app.setAttribute('data-view', 'list')
		listPane.querySelector<HTMLElement>('[aria-current=true]')?.focus()
	}

	const openChat = (userbotId: number, run: Run, names: Names, chat: Pick<ChatSummary, 'id' | 'title'>) => {
		names.know(`chat:${chat.id}`, chat.title)
		const view = conversation({ userbotId, chatId: chat.id, run, names, reply: (m) => compose.setReply(m) })
		const compose = composeBox({ userbotId, chatId: chat.id, run, sent: (m) => view.upsert(m) })
		open = { id: chat.id, view }
		list?.setActive(chat.id)
		app.setAttribute('data-view', 'chat')
		fill(chatPane, chatHead(chat.title, back), view.element, compose.element)
		chatPane.setAttribute('data-open-chat', String(chat.id))
		void view.loadOlder()
		// Opened is read: the unread count goes, as in Telegram's apps.
		void run('read_chat', { chat_id: chat.id }).catch(() => {})
	}

	const live = (event: UpdateEvent) => applyUpdate(event, list, open)

	const follow = (wantedChat?: number) => {
		stop?.()
		open = null
		const userbotId = Number(select.value)
		app.setAttribute('data-view', 'list')
		fill(chatPane, empty('Choose a chat to read and write in it.'))
		chatPane.removeAttribute('data-open-chat')
		app.removeAttribute('data-subscribed')
		if (!userbotId || !ctx.conn)
			return fill(listPane, empty('No userbot is logged in yet: log one in on the Userbots page.'))
		const run = runner(ctx.conn, userbotId)
		const names = nameCache(run)
		const current = chatList({ userbotId, run, names, open: (chat) => openChat(userbotId, run, names, chat) })
		list = current
		fill(listPane, current.element)
		stop = ctx.conn.watch(userbotId, live)
		ctx.conn
			.subscribed(userbotId)
			.then(() => {
				if (Number(select.value) === userbotId) app.setAttribute('data-subscribed', String(userbotId))
			})
			.catch(() => {})
		void current.load().then(() => {
			if (!wantedChat || list !== current) return
			const chat = current.get(wantedChat)
			openChat(userbotId, run, names, chat ?? { id: wantedChat, title: `Chat ${wantedChat}` })
		})
	}
	select.addEventListener('change', () => follow())

	void api<Userbot[]>('GET', '/api/userbots/').then((answer) => {
		fillUserbots(select, answer.ok && Array.isArray(answer.data) ? answer.data : [], params.get('userbot'))
		const chat = Number(params.get('chat'))
		follow(Number.isSafeInteger(chat) && chat !== 0 ? chat : undefined)
	})
	return {
		element: h(
			'div',
			{ class: 'page ch-page', attrs: { 'data-page': 'chat' } },
			h('div', { class: 'ch-toolbar' }, h('label', { attrs: { for: 'ch-userbot' } }, 'Userbot'), select),
			app,
		),
		dispose: () => stop?.(),
	}
}
