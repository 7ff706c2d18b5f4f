import { type EventFilter, foldWord, type MediaKind, mediaKindOf, WORD } from './filter'

/**
 * What an event carries that a filter (./filter.ts) can look at, read once when the event comes
 * (docs/live-updates.md#which-events-a-filter-sees). TDLib's shapes decide it:
 * - an update with a `message` (`updateNewMessage`, `updateMessageSendSucceeded`,
 *   `updateMessageSendFailed`) carries all of it: the chat, the sender, the direction, the content;
 * - `updateMessageContent` carries the chat and the new content (no sender, no direction);
 * - an update with a top-level `chat_id` (edits, deletions, reads, ...) carries the chat, and a
 *   top-level `sender_id` (`updateChatAction`) the sender;
 * - any other (`updateAuthorizationState`, the gateway's own events) carries none of them.
 *
 * **Decision:** a filter passes an event only if the event carries every facet the filter names,
 * and each matches: an event without a chat never passes `chat_ids`, a deletion never passes
 * `outgoing`. Within a list, any item matches (`chat_ids: [1, 2]`: chat 1 or chat 2).
 */
export interface EventFacets {
	chatId?: number
	/** A user's id, or a chat's (a channel posting as itself). */
	senderId?: number
	outgoing?: boolean
	media?: MediaKind
	/** A text's text, a caption, a poll's question. */
	text?: string
	/** The text's words, folded: made on the first `contains` that asks. */
	words?: ReadonlySet<string>
}

type Obj = Record<string, unknown>
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x)
const num = (x: unknown) => (typeof x === 'number' ? x : undefined)

/** `messageSenderUser` → its user id; `messageSenderChat` → its chat id. */
function senderOf(sender: unknown): number | undefined {
	if (!isObj(sender)) return undefined
	return num(sender.user_id) ?? num(sender.chat_id)
}

/** The text a content shows: its text, caption, a poll's question, an animated emoji's emoji. */
function textOf(content: Obj): string | undefined {
	for (const field of ['text', 'caption']) {
		const formatted = content[field]
		if (isObj(formatted) && typeof formatted.text === 'string') return formatted.text
	}
	const poll = content.poll
	if (isObj(poll) && isObj(poll.question) && typeof poll.question.text === 'string') return poll.question.text
	return typeof content.emoji === 'string' && content._ === 'messageAnimatedEmoji' ? content.emoji : undefined
}

function withContent(facets: EventFacets, content: unknown): void {
	if (!isObj(content) || typeof content._ !== 'string') return
	facets.media = mediaKindOf(content._)
	const text = textOf(content)
	if (text !== undefined) facets.text = text
}

/** The facets of one TDLib update (`{_: 'update...', ...}`). */
export function facetsOf(update: Obj): EventFacets {
	const facets: EventFacets = {}
	const message = update.message
	if (isObj(message)) {
		facets.chatId = num(message.chat_id)
		facets.senderId = senderOf(message.sender_id)
		if (typeof message.is_outgoing === 'boolean') facets.outgoing = message.is_outgoing
		withContent(facets, message.content)
		return facets
	}
	const chatId = num(update.chat_id)
	if (chatId !== undefined) facets.chatId = chatId
	const senderId = senderOf(update.sender_id)
	if (senderId !== undefined) facets.senderId = senderId
	if (update._ === 'updateMessageContent') withContent(facets, update.new_content)
	return facets
}

/** An event that carries nothing a filter looks at (the gateway's own events). */
export const NO_FACETS: EventFacets = Object.freeze({})

function wordsOf(facets: EventFacets): ReadonlySet<string> {
	if (!facets.words) {
		const words = new Set<string>()
		for (const w of (facets.text ?? '').match(WORD) ?? []) words.add(foldWord(w))
		facets.words = words
	}
	return facets.words
}

/** Whether `filter` (none: every event) passes an event of these facets. */
export function passes(filter: EventFilter | undefined, facets: EventFacets): boolean {
	if (!filter) return true
	if (filter.chatIds && (facets.chatId === undefined || !filter.chatIds.has(facets.chatId))) return false
	if (filter.senderIds && (facets.senderId === undefined || !filter.senderIds.has(facets.senderId)))
		return false
	if (filter.outgoing !== undefined && facets.outgoing !== filter.outgoing) return false
	if (filter.media && (facets.media === undefined || !filter.media.has(facets.media))) return false
	if (filter.words || filter.pattern) {
		if (facets.text === undefined) return false
		if (filter.words) {
			const words = wordsOf(facets)
			let found = false
			for (const w of filter.words)
				if (words.has(w)) {
					found = true
					break
				}
			if (!found) return false
		}
		if (filter.pattern && !filter.pattern.test(facets.text)) return false
	}
	return true
}
