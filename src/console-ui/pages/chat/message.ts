/// <reference lib="dom" />
import { h } from '../../dom'
import { fileUrl, kind, type Message, type Names, photoToShow, preview } from './model'

/** How long a photo that TDLib is still downloading (the files route's 202) is asked for again. */
const PHOTO_ATTEMPTS = 30

/**
 * An `<img>` of a file through the files route. While TDLib downloads it the route answers 202 (an
 * error for the image): the image asks again after the route's `Retry-After`, a bounded number of
 * times, with a query the route ignores so the browser does not reuse the failed answer.
 */
export function fileImage(userbotId: number, fileId: number, alt: string, attrs: Record<string, string>) {
	const url = fileUrl(userbotId, fileId)
	const img = h('img', { attrs: { src: url, alt, loading: 'lazy', ...attrs } })
	let attempts = 0
	img.addEventListener('error', () => {
		if (++attempts >= PHOTO_ATTEMPTS) return img.setAttribute('data-failed', '')
		setTimeout(() => img.setAttribute('src', `${url}?attempt=${attempts}`), 1000)
	})
	return img
}

const time = (m: Message) =>
	m.date ? new Date(m.date * 1000).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) : ''

export interface MessageView {
	userbotId: number
	names: Names
	/** The shown message a reply points to, for its quote. */
	find(id: number): Message | undefined
	reply(m: Message): void
}

/** One message as a bubble: sender, reply quote, text, photo or file, time, and a Reply button. */
export function messageElement(m: Message, view: MessageView): HTMLLIElement {
	const sender = h('span', { class: 'ch-sender' }, m.is_outgoing ? 'You' : '')
	if (!m.is_outgoing) void view.names.sender(m).then((name) => (sender.textContent = name))
	const c = m.content
	const photo = kind(c) === 'messagePhoto' ? photoToShow(c) : undefined
	const doc = kind(c) === 'messageDocument' ? c?.document : undefined
	const replyId = kind(m.reply_to) === 'messageReplyToMessage' ? m.reply_to?.message_id : undefined
	const quoted = replyId ? view.find(replyId) : undefined
	const words = c?.text?.text ?? c?.caption?.text ?? ''
	const pending = kind(m.sending_state) === 'messageSendingStatePending'
	const failed = kind(m.sending_state) === 'messageSendingStateFailed'
	const li = h(
		'li',
		{
			class: `ch-message${m.is_outgoing ? ' ch-out' : ''}`,
			attrs: {
				'data-message': String(m.id),
				'data-reply-to': replyId ? String(replyId) : undefined,
				'data-sent': pending || failed ? undefined : 'true',
				'data-failed': failed ? 'true' : undefined,
			},
		},
		sender,
		replyId
			? h('blockquote', { class: 'ch-quote' }, quoted ? preview(quoted) : 'A message not loaded here')
			: null,
		photo?.photo?.id
			? fileImage(view.userbotId, photo.photo.id, words || 'Photo', {
					'data-photo': String(photo.photo.id),
					width: String(photo.width ?? ''),
					height: String(photo.height ?? ''),
				})
			: null,
		doc?.document?.id
			? h(
					'a',
					{
						attrs: {
							href: fileUrl(view.userbotId, doc.document.id),
							download: doc.file_name ?? 'file',
							'data-document': '',
						},
					},
					`File: ${doc.file_name ?? 'download'}`,
				)
			: null,
		words
			? h('p', { class: 'ch-text' }, words)
			: photo || doc
				? null
				: h('p', { class: 'ch-text ch-other' }, preview(m)),
		h(
			'span',
			{ class: 'ch-meta' },
			h('time', null, time(m)),
			pending ? ' · sending' : failed ? ' · not sent' : '',
			h(
				'button',
				{
					class: 'ch-reply',
					attrs: {
						type: 'button',
						'data-action': 'reply',
						'aria-label': `Reply to ${words ? `“${words.slice(0, 40)}”` : 'this message'}`,
					},
					on: { click: () => view.reply(m) },
				},
				'Reply',
			),
		),
	)
	return li
}
