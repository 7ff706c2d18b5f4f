import type { ObservedEvent } from 'userbot-gateway/plugin'
import { memberChanges, messageKey, postOf, type UpdateType } from './update-of'

/** Messages remembered per userbot, so an edit (TDLib sends only its new content) becomes a whole `Message`. */
const SEEN = 2000

type Td = Record<string, unknown>

/** An update on its way: numbered, not yet handed out (its sender may be undecided). */
export interface Entry {
	updateId: number
	part: number
	at: number
	/** null: a member's change, `my_chat_member` or `chat_member` by whose it is (`member`). */
	type: UpdateType | null
	member?: number
	body: unknown
	/** Sent through this face (true), not (false), or not known yet (undefined). */
	face?: boolean
	/** The message's `chat:message_id`, for a message this server sent or edited. */
	key?: string
	/**
	 * An edit of a message not seen here (before a restart, or past SEEN): its body waits for the
	 * whole message (TDLib's `getMessage`, updates.ts), held back as an undecided one is.
	 */
	fill?: { chatId: number; messageId: number }
}

/** What the entries of one TDLib update are made from: the userbot's messages seen lately. */
export interface Intake {
	/** By `chat:message_id`: what an edit is made of. */
	seen: Map<string, Td>
	/** Sending methods of this face running now for the userbot. */
	sending: number
}

const remember = (b: Intake, message: Td) => {
	const key = messageKey(message.chat_id, message.id)
	b.seen.delete(key)
	b.seen.set(key, message)
	if (b.seen.size > SEEN) b.seen.delete(b.seen.keys().next().value as string)
}

type Made = Omit<Entry, 'updateId' | 'part' | 'at'>

/** A new message (another's, the account's own from elsewhere, or one this server sent), and its members' changes. */
function newMessage(b: Intake, event: ObservedEvent): Made[] {
	const message = event.data.message as Td | undefined
	// A temporary message of this server's: its sent form comes as updateMessageSendSucceeded.
	if (!message || message.sending_state) return []
	remember(b, message)
	const sentHere = event.kind === 'updateMessageSendSucceeded'
	const made: Made[] = [
		{
			type: message.is_channel_post === true ? 'channel_post' : 'message',
			body: postOf(message),
			face: sentHere && b.sending > 0 ? undefined : false,
			...(sentHere ? { key: messageKey(message.chat_id, message.id) } : {}),
		},
	]
	for (const change of memberChanges(message))
		made.push({ type: null, member: change.userId, body: change.body, face: false })
	return made
}

/**
 * The Bot API updates of one TDLib update (none for most), numbered `updateId` by the caller.
 * `updateMessageContent` only changes what a later edit is made of.
 */
export function entriesOf(b: Intake, event: ObservedEvent): Made[] {
	if (event.kind === 'updateNewMessage' || event.kind === 'updateMessageSendSucceeded')
		return newMessage(b, event)
	const data = event.data
	const key = messageKey(data.chat_id, data.message_id)
	const known = b.seen.get(key)
	if (event.kind === 'updateMessageContent') {
		b.seen.set(key, {
			...(known ?? { id: data.message_id, chat_id: data.chat_id }),
			content: data.new_content,
		})
		return []
	}
	if (event.kind !== 'updateMessageEdited') return []
	const message: Td = {
		...(known ?? { id: data.message_id, chat_id: data.chat_id, date: data.edit_date }),
		edit_date: data.edit_date,
	}
	b.seen.set(key, message)
	// Only a whole message (one seen, or its sender known) says who wrote it and whether it is a post.
	const whole = message.sender_id !== undefined
	return [
		{
			type: message.is_channel_post === true ? 'edited_channel_post' : 'edited_message',
			body: postOf(message),
			// An edit this face makes is its own, as a message it sends is.
			face: b.sending > 0 ? undefined : false,
			key,
			...(whole ? {} : { fill: { chatId: Number(data.chat_id), messageId: Number(data.message_id) } }),
		},
	]
}

/** An edit's entry made whole from the message TDLib answered (`getMessage`), its edit date kept. */
export function filled(b: Intake, e: Made, message: Td | undefined): void {
	if (message?._ === 'message') {
		const whole: Td = {
			...message,
			edit_date: (e.body as { edit_date?: unknown }).edit_date ?? message.edit_date,
		}
		remember(b, whole)
		e.type = whole.is_channel_post === true ? 'edited_channel_post' : 'edited_message'
		e.body = postOf(whole)
	}
	delete e.fill
}
