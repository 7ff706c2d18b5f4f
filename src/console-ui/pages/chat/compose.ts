/// <reference lib="dom" />
import { h } from '../../dom'
import { type Message, preview, type Run } from './model'

export interface ComposeOptions {
	userbotId: number
	chatId: number
	run: Run
	/** TDLib's answer to the send (its temporary message), to show at once. */
	sent(m: Message): void
}

/** Sends a file to the userbot's uploads (POST /api/userbots/{id}/files/): its name there. */
async function upload(userbotId: number, file: File): Promise<string> {
	const body = new FormData()
	body.append('file', file)
	const res = await fetch(`/api/userbots/${userbotId}/files/`, {
		method: 'POST',
		credentials: 'same-origin',
		body,
	})
	const data = (await res.json().catch(() => null)) as { file?: string; detail?: string } | null
	if (res.status !== 201 || !data?.file)
		throw new Error(data?.detail ?? `the upload failed (HTTP ${res.status})`)
	return data.file
}

/** The line naming the message replied to, with its Cancel. */
const replyingBar = (quote: HTMLElement, cancel: () => void) =>
	h(
		'div',
		{ class: 'ch-replying', attrs: { 'data-replying': '', hidden: '' } },
		h('span', null, 'Replying to: '),
		quote,
		h(
			'button',
			{ attrs: { type: 'button', 'data-action': 'cancel-reply' }, on: { click: cancel } },
			'Cancel reply',
		),
	)

interface ComposeParts {
	replying: HTMLElement
	file: HTMLInputElement
	text: HTMLTextAreaElement
	send: HTMLButtonElement
	fileName: HTMLElement
	status: HTMLElement
}

/** The form: the reply line, then Attach, the text and Send in a row, the file's name and the status below. */
function composeForm(parts: ComposeParts, submit: () => void): HTMLFormElement {
	const { replying, file, text, send, fileName, status } = parts
	return h(
		'form',
		{
			class: 'ch-compose',
			attrs: { name: 'compose', 'data-form': 'compose' },
			on: {
				submit: (event) => {
					event.preventDefault()
					submit()
				},
			},
		},
		replying,
		h(
			'div',
			{ class: 'ch-compose-row' },
			h(
				'label',
				{ class: 'ch-attach', attrs: { for: file.id } },
				'Attach',
				h('span', { class: 'ch-hidden' }, ' a file'),
			),
			file,
			text,
			send,
		),
		fileName,
		status,
	)
}

/**
 * The compose box: text (Enter sends, Shift+Enter is a new line), an optional file (uploaded first,
 * sent as a photo when it is an image, else as a document, with the text as its caption) and an
 * optional message it replies to. One `send_message` a send.
 */
export function composeBox(opts: ComposeOptions) {
	let replyTo: Message | null = null
	const text = h('textarea', {
		attrs: { name: 'text', rows: '2', 'aria-label': 'Message', placeholder: 'Write a message' },
	})
	const file = h('input', {
		class: 'ch-hidden-file',
		attrs: { type: 'file', name: 'file', id: `ch-file-${opts.chatId}` },
	})
	const fileName = h('span', { class: 'ch-file-name', attrs: { 'data-file-name': '' } })
	const quote = h('span', { class: 'ch-replying-text' })
	const status = h('p', { class: 'ch-compose-status', attrs: { role: 'status' } })
	const replying = replyingBar(quote, () => setReply(null))
	const send = h(
		'button',
		{ class: 'ch-send', attrs: { type: 'submit', 'data-action': 'send-message' } },
		'Send',
	)
	const setReply = (m: Message | null) => {
		replyTo = m
		replying.hidden = !m
		quote.textContent = m ? preview(m) : ''
		if (m) text.focus()
	}
	file.addEventListener('change', () => {
		fileName.textContent = file.files?.[0]?.name ?? ''
	})

	const submit = async () => {
		const words = text.value
		const chosen = file.files?.[0]
		if (!words.trim() && !chosen) return
		send.disabled = true
		status.textContent = chosen ? 'Uploading…' : ''
		status.classList.remove('error')
		try {
			const fields: Record<string, unknown> = { chat_id: opts.chatId, text: words }
			if (replyTo) fields.reply_to_message_id = replyTo.id
			if (chosen) {
				const name = await upload(opts.userbotId, chosen)
				fields.media = { file: `upload:${name}` }
				fields.media_type = chosen.type.startsWith('image/') ? 'photo' : 'document'
			}
			opts.sent(await opts.run<Message>('send_message', fields))
			text.value = ''
			file.value = ''
			fileName.textContent = ''
			status.textContent = ''
			setReply(null)
		} catch (err) {
			status.textContent = `Not sent: ${err instanceof Error ? err.message : String(err)}`
			status.classList.add('error')
		} finally {
			send.disabled = false
		}
	}
	text.addEventListener('keydown', (event) => {
		if (event.key === 'Enter' && !event.shiftKey) {
			event.preventDefault()
			void submit()
		}
	})
	const form = composeForm({ replying, file, text, send, fileName, status }, () => void submit())
	return { element: form, setReply }
}
