/// <reference lib="dom" />
import type { Connection } from '../../connection'

/**
 * What the chat view reads of TDLib's objects, as the commands-chats group answers them (the
 * emulator and TDLib both name a type by `_` on our channel; `@type` is read too for safety).
 */
export type Typed = { _?: string; '@type'?: string }
export type Text = { text?: string }
export type PhotoSize = Typed & { photo?: { id?: number }; width?: number; height?: number }
export type Content = Typed & {
	text?: Text
	caption?: Text
	photo?: { sizes?: PhotoSize[] }
	document?: { file_name?: string; document?: { id?: number } }
}
export type Message = {
	id: number
	chat_id: number
	date?: number
	is_outgoing?: boolean
	sending_state?: Typed | null
	sender_id?: Typed & { user_id?: number; chat_id?: number }
	reply_to?: (Typed & { chat_id?: number; message_id?: number }) | null
	content?: Content
}
export type ChatSummary = {
	id: number
	title: string
	type: string
	unread_count: number
	last_message: Message | null
	photo_file_ids: { small: number; big: number } | null
}

export const kind = (o: Typed | null | undefined) => o?._ ?? o?.['@type'] ?? ''

/** The words a message shows in a list or a reply quote. */
export function preview(m: Message | null | undefined): string {
	if (!m) return ''
	const c = m.content
	const words = c?.text?.text ?? c?.caption?.text ?? ''
	switch (kind(c)) {
		case 'messageText':
			return words
		case 'messagePhoto':
			return words ? `Photo: ${words}` : 'Photo'
		case 'messageDocument':
			return `File ${c?.document?.file_name ?? ''}${words ? `: ${words}` : ''}`.trim()
		default:
			return words || kind(c).replace(/^message/, '') || 'Message'
	}
}

/** The photo size to show: the biggest up to 1280 px wide (else the smallest there is). */
export function photoToShow(c: Content | undefined): PhotoSize | undefined {
	const sizes = (c?.photo?.sizes ?? []).filter((s) => typeof s.photo?.id === 'number')
	const fitting = sizes.filter((s) => (s.width ?? 0) <= 1280)
	return fitting.at(-1) ?? sizes[0]
}

export const fileUrl = (userbotId: number, fileId: number) => `/api/userbots/${userbotId}/files/${fileId}`

/** A command's result, or an Error with the server's (or TDLib's) words. */
export type Run = <T>(action: string, fields?: Record<string, unknown>) => Promise<T>

export function runner(conn: Connection, userbotId: number): Run {
	return async <T>(action: string, fields: Record<string, unknown> = {}) => {
		const payload = (await conn.run({ ...fields, action, userbot_id: userbotId })) as {
			type: string
			error?: unknown
			result?: unknown
		}
		if (payload.type.endsWith('_error')) throw new Error(String(payload.error ?? payload.type))
		return payload.result as T
	}
}

/** Names for ids, asked once per userbot and kept: `get_user` for people, `get_chat` for chats. */
export function nameCache(run: Run) {
	const names = new Map<string, Promise<string>>()
	const ask = (key: string, load: () => Promise<string>, fallback: string) => {
		let name = names.get(key)
		if (!name) {
			name = load().catch(() => fallback)
			names.set(key, name)
		}
		return name
	}
	return {
		/** Seeds a name already known (a chat's title from the list). */
		know(key: string, name: string) {
			names.set(key, Promise.resolve(name))
		},
		user: (id: number) =>
			ask(
				`user:${id}`,
				async () => {
					const { user } = await run<{ user: { first_name?: string; last_name?: string } }>('get_user', {
						user_id: id,
					})
					return `${user.first_name ?? ''} ${user.last_name ?? ''}`.trim() || `User ${id}`
				},
				`User ${id}`,
			),
		chat: (id: number) =>
			ask(
				`chat:${id}`,
				async () => (await run<{ title: string }>('get_chat', { chat_id: id })).title,
				`Chat ${id}`,
			),
		sender(m: Message): Promise<string> {
			const s = m.sender_id
			if (s?.user_id !== undefined) return this.user(s.user_id)
			if (s?.chat_id !== undefined) return this.chat(s.chat_id)
			return Promise.resolve('')
		},
	}
}
export type Names = ReturnType<typeof nameCache>
