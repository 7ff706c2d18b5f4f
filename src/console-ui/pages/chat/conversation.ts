/// <reference lib="dom" />
import { h } from '../../dom'
import { type MessageView, messageElement } from './message'
import type { Message, Names, Run } from './model'

/** Messages asked per page of history; more pages follow while the pane cannot scroll yet. */
const PAGE = 30

export interface ConversationOptions {
	userbotId: number
	chatId: number
	run: Run
	names: Names
	reply(m: Message): void
}

/** One page of the chat's history, from `from` back (0: the newest). */
const historyPage = (opts: ConversationOptions, from: number) =>
	opts.run<{ messages: Message[]; next_from_message_id: number }>('get_chat_history', {
		chat_id: opts.chatId,
		from_message_id: from,
		limit: PAGE,
	})

const nearBottom = (scroller: HTMLElement) =>
	scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 80

/**
 * After a page went in at the top: the first shows the newest; after a later one the messages already
 * read stay where they were on the screen.
 */
const keepPlace = (scroller: HTMLElement, first: boolean, before: number) => {
	scroller.scrollTop = first ? scroller.scrollHeight : scroller.scrollTop + scroller.scrollHeight - before
}

/** The scrolled pane: the start-of-chat mark, a status line, the messages. */
function historyPane() {
	const list = h('ol', { class: 'ch-messages', attrs: { 'data-messages': '' } })
	const start = h(
		'p',
		{ class: 'ch-start', attrs: { 'data-history-start': '', hidden: '' } },
		'Start of the chat',
	)
	const status = h('p', { class: 'ch-empty', attrs: { role: 'status' } })
	const scroller = h(
		'div',
		{
			class: 'ch-history',
			attrs: { 'data-history': '', tabindex: '0', role: 'log', 'aria-label': 'Messages' },
		},
		start,
		status,
		list,
	)
	return { list, start, status, scroller }
}

/**
 * One chat's messages, oldest at the top: the newest page on open, older pages when scrolled to the
 * top (get_chat_history from the oldest one shown; TDLib repeats that one, so ids already shown are
 * dropped: no gap, no repeat), and live messages at the bottom. `data-loading` is set while a page is
 * on its way; `[data-history-start]` appears once the chat's first message is shown.
 */
export function conversation(opts: ConversationOptions) {
	const byId = new Map<number, { message: Message; element: HTMLLIElement }>()
	/** Temporary ids TDLib already replaced: a late reply of the send must not show it again. */
	const replaced = new Set<number>()
	let oldest = 0
	let atStart = false
	let loading: Promise<void> | null = null
	const { list, start, status, scroller } = historyPane()
	const view: MessageView = {
		userbotId: opts.userbotId,
		names: opts.names,
		find: (id) => byId.get(id)?.message,
		reply: opts.reply,
	}
	const element = (m: Message) => {
		const el = messageElement(m, view)
		byId.set(m.id, { message: m, element: el })
		return el
	}

	const loadOlder = (): Promise<void> => {
		if (loading || atStart) return loading ?? Promise.resolve()
		scroller.setAttribute('data-loading', '')
		loading = (async () => {
			try {
				const page = await historyPage(opts, oldest)
				const fresh = page.messages.filter((m) => !byId.has(m.id)).reverse()
				const before = scroller.scrollHeight
				const first = byId.size === 0
				list.prepend(...fresh.map(element))
				if (fresh.length) oldest = Math.min(oldest || Number.POSITIVE_INFINITY, ...fresh.map((m) => m.id))
				atStart = page.next_from_message_id === 0 || fresh.length === 0
				start.hidden = !atStart
				status.textContent = byId.size ? '' : 'No messages yet.'
				keepPlace(scroller, first, before)
			} catch (err) {
				status.textContent = `Could not load messages: ${err instanceof Error ? err.message : String(err)}`
				status.classList.add('error')
				atStart = true
			} finally {
				loading = null
				scroller.removeAttribute('data-loading')
			}
			// A pane not yet full cannot be scrolled up: fill it.
			if (!atStart && scroller.scrollHeight <= scroller.clientHeight) await loadOlder()
		})()
		return loading
	}
	scroller.addEventListener('scroll', () => {
		if (scroller.scrollTop < 60) void loadOlder()
	})

	return {
		element: scroller,
		loadOlder,
		/** A message to show at the bottom, or again in its place (a message already shown is replaced). */
		upsert(m: Message, oldId?: number) {
			if (m.chat_id !== opts.chatId) return
			if (oldId === undefined && replaced.has(m.id)) return
			if (oldId !== undefined) replaced.add(oldId)
			const shown = [oldId, m.id].map((id) => (id === undefined ? undefined : byId.get(id)?.element))
			const [first, ...rest] = [...new Set(shown.filter((el) => el !== undefined))]
			if (oldId !== undefined) byId.delete(oldId)
			const stick = nearBottom(scroller)
			const el = element(m)
			for (const other of rest) other.remove()
			if (first) first.replaceWith(el)
			else list.append(el)
			status.textContent = ''
			if (stick || m.is_outgoing) scroller.scrollTop = scroller.scrollHeight
		},
		remove(ids: readonly number[]) {
			for (const id of ids) {
				byId.get(id)?.element.remove()
				byId.delete(id)
			}
		},
	}
}
export type Conversation = ReturnType<typeof conversation>
