import { type AppContext, KEY_WEBHOOK_EVENT, type ObservedEvent } from 'userbot-gateway/plugin'
import { botMessageId } from './objects'
import {
	DEFAULT_TYPES,
	memberChanges,
	messageKey,
	postOf,
	TD_KINDS,
	UPDATE_TYPES,
	type UpdateType,
} from './update-of'

/**
 * What getUpdates hands out and setWebhook delivers (docs/bot-api.md#updates): each userbot's
 * updates as Bot API `Update`s, numbered by the userbot's live-update sequence (`update_id`, so an
 * offset resumes exactly), kept here for KEEP_MS and at most KEEP per userbot.
 *
 * Sent through this face: a message this server sends reaches TDLib's client as a temporary message
 * (`sending_state`, left out) and then as the sent one (`updateMessageSendSucceeded`). While a
 * sending or editing method of this face runs for the userbot, such a message (and any edit) waits undecided; the method's
 * answer names the messages it sent, which are the face's own, and once no sending method runs the
 * rest are not (another face of the gateway sent them). The face's own are left out unless the
 * token asked for them (`include_own_sends`), so an echo bot does not answer itself; the account's
 * messages from its other devices come as any other message. Nothing after an undecided update is
 * handed out before it is decided: the order of `update_id`s is the order of delivery.
 */
const KEEP = 1000
const KEEP_MS = 24 * 3600 * 1000
/** A message undecided longer than this (a sending method that never ends) is taken as not the face's. */
const UNDECIDED_MS = 30_000
/** Messages remembered per userbot, so an edit (TDLib sends only its new content) becomes a whole `Message`. */
const SEEN = 2000

type Td = Record<string, unknown>

interface Entry {
	seq: number
	at: number
	/** null: a member's change, `my_chat_member` or `chat_member` by whose it is (`member`). */
	type: UpdateType | null
	member?: number
	body: unknown
	/** Sent through this face (true), not (false), or not known yet (undefined). */
	face?: boolean
	/** The message's `chat:message_id`, for a message this server sent. */
	key?: string
}

/** A token's own settings: the kinds it wants, its own sends or not, where its offset stands. */
export interface TokenSettings {
	allowed: ReadonlySet<UpdateType>
	includeOwn: boolean
}

export const defaultSettings = (): TokenSettings => ({ allowed: DEFAULT_TYPES, includeOwn: false })

/** The settings as a key's webhook keeps them (the endpoint's `key_settings`). */
export const settingsJson = (s: TokenSettings, extra: Record<string, unknown> = {}) =>
	JSON.stringify({ allowed_updates: [...s.allowed], include_own_sends: s.includeOwn, ...extra })

export function settingsFrom(json: string): TokenSettings & { maxConnections?: number } {
	try {
		const raw = JSON.parse(json) as Record<string, unknown>
		const list = Array.isArray(raw.allowed_updates) ? raw.allowed_updates : []
		const allowed = new Set(UPDATE_TYPES.filter((t) => list.includes(t)))
		return {
			allowed: allowed.size > 0 ? allowed : DEFAULT_TYPES,
			includeOwn: raw.include_own_sends === true,
			...(typeof raw.max_connections === 'number' ? { maxConnections: raw.max_connections } : {}),
		}
	} catch {
		return defaultSettings()
	}
}

/** Who asks: the token's key, its one userbot and its account's user id (the token's first part). */
export interface Asker {
	keyId: number
	userbotId: number
	selfId: number
}

interface UserbotBuffer {
	entries: Entry[]
	/** Messages seen lately, by `chat:message_id`: what an edit is made of. */
	seen: Map<string, Td>
	/** Sending methods of this face running now for the userbot. */
	sending: number
	/** Entries handed to the key webhooks so far (an index into `entries` past the last one handed). */
	emitted: number
}

export function createUpdateBuffer(ctx: AppContext) {
	const buffers = new Map<number, UserbotBuffer>()
	const waiters = new Map<number, Set<() => void>>()
	/** Each token's settings and confirmed offset for getUpdates (this gateway's memory). */
	const tokens = new Map<number, TokenSettings & { confirmed: number }>()
	/** The key webhooks of each userbot, with their settings (refreshed from the webhooks plugin). */
	let hooks = new Map<number, Map<number, TokenSettings & { selfId: number }>>()
	/** Each userbot's account user id, as its tokens name it. */
	const selves = new Map<number, number>()
	ctx.updates.want(buffers, [...TD_KINDS])

	const bufferOf = (userbotId: number): UserbotBuffer => {
		let b = buffers.get(userbotId)
		if (!b) {
			b = { entries: [], seen: new Map(), sending: 0, emitted: 0 }
			buffers.set(userbotId, b)
		}
		return b
	}
	const wake = (userbotId: number) => {
		for (const fn of waiters.get(userbotId) ?? []) fn()
	}
	const remember = (b: UserbotBuffer, message: Td) => {
		const key = messageKey(message.chat_id, message.id)
		b.seen.delete(key)
		b.seen.set(key, message)
		if (b.seen.size > SEEN) b.seen.delete(b.seen.keys().next().value as string)
	}
	const add = (userbotId: number, b: UserbotBuffer, entry: Entry) => {
		b.entries.push(entry)
		if (b.entries.length > KEEP) {
			const cut = b.entries.length - KEEP
			b.entries.splice(0, cut)
			b.emitted = Math.max(0, b.emitted - cut)
		}
		release(userbotId, b)
	}

	/** The entries of a TDLib update (none for most). */
	const handle = (event: ObservedEvent) => {
		if (!event.live) return
		const data = event.data
		const at = Date.now()
		const seq = event.seq
		const b = bufferOf(event.userbotId)
		if (event.kind === 'updateNewMessage' || event.kind === 'updateMessageSendSucceeded') {
			const message = data.message as Td | undefined
			// A temporary message of this server's: its sent form comes as updateMessageSendSucceeded.
			if (!message || message.sending_state) return
			remember(b, message)
			const post = message.is_channel_post === true
			const sentHere = event.kind === 'updateMessageSendSucceeded'
			add(event.userbotId, b, {
				seq,
				at,
				type: post ? 'channel_post' : 'message',
				body: postOf(message),
				face: sentHere ? (b.sending > 0 ? undefined : false) : false,
				...(sentHere ? { key: messageKey(message.chat_id, message.id) } : {}),
			})
			for (const change of memberChanges(message))
				add(event.userbotId, b, {
					seq,
					at,
					type: null,
					member: change.userId,
					body: change.body,
					face: false,
				})
			return
		}
		const key = messageKey(data.chat_id, data.message_id)
		const known = b.seen.get(key)
		if (event.kind === 'updateMessageContent') {
			b.seen.set(key, {
				...(known ?? { id: data.message_id, chat_id: data.chat_id }),
				content: data.new_content,
			})
			return
		}
		if (event.kind === 'updateMessageEdited') {
			const message: Td = {
				...(known ?? { id: data.message_id, chat_id: data.chat_id, date: data.edit_date }),
				edit_date: data.edit_date,
			}
			b.seen.set(key, message)
			const post = message.is_channel_post === true
			add(event.userbotId, b, {
				seq,
				at,
				type: post ? 'edited_channel_post' : 'edited_message',
				body: postOf(message),
				// An edit this face makes is its own, as a message it sends is.
				face: b.sending > 0 ? undefined : false,
				key,
			})
		}
	}
	const stop = ctx.updates.observe(handle)
	ctx.onClose(stop)

	/** An entry's Bot API type for a token of account `selfId`. */
	const typeOf = (e: Entry, selfId: number): UpdateType =>
		e.type ?? (e.member === selfId ? 'my_chat_member' : 'chat_member')
	const wanted = (e: Entry, s: TokenSettings, selfId: number) =>
		(s.includeOwn || e.face !== true) && s.allowed.has(typeOf(e, selfId))
	const updateOf = (e: Entry, selfId: number) => ({ update_id: e.seq, [typeOf(e, selfId)]: e.body })

	/** Hands the decided entries, in order, to the userbot's key webhooks; wakes the long polls. */
	const release = (userbotId: number, b: UserbotBuffer) => {
		const now = Date.now()
		// Only the entries not handed on yet can be undecided (the handing stops at the first one).
		for (let i = b.emitted; i < b.entries.length; i++) {
			const e = b.entries[i] as Entry
			if (e.face === undefined && (b.sending === 0 || now - e.at > UNDECIDED_MS)) e.face = false
		}
		const keys = hooks.get(userbotId)
		while (b.emitted < b.entries.length) {
			const e = b.entries[b.emitted] as Entry
			if (e.face === undefined) break
			b.emitted++
			for (const [keyId, s] of keys ?? [])
				if (wanted(e, s, s.selfId))
					ctx.updates.emit(userbotId, KEY_WEBHOOK_EVENT, { key_id: keyId, update: updateOf(e, s.selfId) })
		}
		wake(userbotId)
	}

	/** The decided updates of the token from `offset` on, at most `limit`. */
	const take = (asker: Asker, s: TokenSettings & { confirmed: number }, limit: number) => {
		const b = buffers.get(asker.userbotId)
		if (!b) return []
		const now = Date.now()
		const out: Array<Record<string, unknown>> = []
		for (const e of b.entries.slice(0, b.emitted)) {
			if (out.length >= limit) break
			if (e.seq < s.confirmed || now - e.at >= KEEP_MS) continue
			if (wanted(e, s, asker.selfId)) out.push(updateOf(e, asker.selfId))
		}
		return out
	}

	const wait = (userbotId: number, ms: number, signal: AbortSignal) =>
		new Promise<void>((resolve) => {
			const set = waiters.get(userbotId) ?? new Set()
			waiters.set(userbotId, set)
			const done = () => {
				clearTimeout(timer)
				set.delete(done)
				signal.removeEventListener('abort', done)
				resolve()
			}
			const timer = setTimeout(done, ms)
			signal.addEventListener('abort', done, { once: true })
			set.add(done)
		})

	const tokenOf = (keyId: number) => {
		let s = tokens.get(keyId)
		if (!s) {
			s = { ...defaultSettings(), confirmed: 0 }
			tokens.set(keyId, s)
		}
		return s
	}

	/** The key webhooks as the webhooks plugin has them now (a change made on another gateway too). */
	const refresh = async () => {
		const list = (await ctx.keyWebhooks()?.list()) ?? []
		const next = new Map<number, Map<number, TokenSettings & { selfId: number }>>()
		for (const h of list) {
			const selfId = selves.get(h.keyId)
			if (selfId === undefined) continue
			const of = next.get(h.userbotId) ?? new Map()
			of.set(h.keyId, { ...settingsFrom(h.settings), selfId })
			next.set(h.userbotId, of)
		}
		hooks = next
	}
	const timer = setInterval(() => {
		refresh().catch((err: unknown) =>
			ctx.log.warn('bot api: reading the key webhooks failed', {
				error: err instanceof Error ? err.message : String(err),
			}),
		)
	}, 5000)
	ctx.onClose(() => clearInterval(timer))

	return {
		/** A token's account user id (its first part, checked by the authenticator): index.ts, at each request. */
		introduce(keyId: number, selfId: number) {
			selves.set(keyId, selfId)
		},

		/** The view of one token's updates. */
		forToken(keyId: number, userbotId: number) {
			const asker: Asker = { keyId, userbotId, selfId: selves.get(keyId) ?? 0 }
			return {
				asker,
				settings: () => tokenOf(asker.keyId),
				/** Sets what the token asked for (`allowed_updates`, `include_own_sends`), remembered until changed. */
				configure(allowed: ReadonlySet<UpdateType> | undefined, includeOwn: boolean | undefined) {
					const s = tokenOf(asker.keyId)
					if (allowed) s.allowed = allowed
					if (includeOwn !== undefined) s.includeOwn = includeOwn
				},
				async get(offset: number | undefined, limit: number, timeoutMs: number, signal: AbortSignal) {
					const s = tokenOf(asker.keyId)
					if (offset !== undefined) {
						// As Telegram: an offset confirms what is before it; a lower one confirms nothing again.
						if (offset >= 0) s.confirmed = Math.max(s.confirmed, offset)
						else {
							// As Telegram: -N is the last N updates (those before them are confirmed).
							const b = buffers.get(asker.userbotId)
							const decided = b ? b.entries.slice(0, b.emitted).filter((e) => wanted(e, s, asker.selfId)) : []
							const from = decided[Math.max(0, decided.length + offset)]
							if (from) s.confirmed = Math.max(s.confirmed, from.seq)
						}
					}
					const now = take(asker, s, limit)
					if (now.length > 0 || timeoutMs <= 0) return now
					await wait(asker.userbotId, timeoutMs, signal)
					return take(asker, s, limit)
				},
				/** Every update handed out so far counts as confirmed (a webhook takes them from here). */
				confirmAll() {
					const b = buffers.get(asker.userbotId)
					const last = b?.entries[b.emitted - 1]
					if (last) tokenOf(keyId).confirmed = last.seq + 1
				},
				/** The key webhook was set or removed here: it takes effect at once. */
				hooked: () => refresh(),
			}
		},

		/**
		 * Runs a sending method of the face: the messages this server sends meanwhile wait, and those
		 * its answer names (`Message`s: `chat.id` and `message_id`) are the face's own.
		 */
		async sending<T>(userbotId: number, run: () => Promise<T>): Promise<T> {
			const b = bufferOf(userbotId)
			b.sending++
			let result: T | undefined
			try {
				result = await run()
				return result
			} finally {
				b.sending--
				const mine = new Set<string>()
				for (const m of Array.isArray(result) ? result : [result]) {
					const x = m as { message_id?: unknown; chat?: { id?: unknown } } | undefined
					if (typeof x?.message_id === 'number' && x.chat) mine.add(`${x.chat.id}:${x.message_id}`)
				}
				for (let i = b.emitted; i < b.entries.length; i++) {
					const e = b.entries[i] as Entry
					if (e.face === undefined && e.key && mine.has(e.key)) e.face = true
				}
				release(userbotId, b)
			}
		},
	}
}

export type UpdateBuffer = ReturnType<typeof createUpdateBuffer>
export type TokenUpdates = ReturnType<UpdateBuffer['forToken']>
export { botMessageId }
