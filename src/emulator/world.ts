import type * as Td from 'tdlib-types'
import { encodeGraph } from './cloud/codec'
import { newMember, type Role } from './members/records'
import {
	type AuthorizationRecord,
	type ChatEventRecord,
	type ChatRecord,
	MESSAGE_ID_SHIFT,
	type MessageRecord,
	type UpdateListener,
	type UserRecord,
} from './records'

export type { BanRecord, MemberRecord, Role } from './members/records'
// The records' names, where every domain has always imported them.
export * from './records'

/**
 * The emulated Telegram cloud: plain records, shared by every emulated client. TDLib-shaped objects
 * are built from these per viewer (`objects.ts`).
 *
 * What persists (the rule for whoever adds state): every own field of `World` and every domain's
 * `store(name, init)` is kept in `DATA_DIR/tdlib/emulator/cloud.json` by the cloud host
 * (`cloud/`), with no code of the domain's own: the encoding (`cloud/codec.ts`) takes any plain
 * data (objects, arrays, Maps, Sets, primitives, shared references between records) and refuses
 * anything else (a function, a class instance, a WeakMap, a live client) by its path. So keep a
 * domain's records as plain data in a store, refer to a client by its authorization key (never by
 * its `Session`), and keep what belongs to live clients only in `#private` fields, which do not
 * persist.
 */
/** The wall clock in Unix seconds, where a world's time starts. */
export const wallSeconds = () => Math.floor(Date.now() / 1000)

const REACTIONS: readonly string[] = ['👍', '👎', '❤', '🔥', '🎉', '😁', '🤔', '😢']

export class World {
	readonly users = new Map<number, UserRecord>()
	/** Group chats by TDLib chat id. */
	readonly groups = new Map<number, ChatRecord>()
	/** Private chats by `min:max` of the two user ids. */
	readonly privates = new Map<string, ChatRecord>()
	/** Logged-in clients' authorizations by key: a client's folder keeps its key, the cloud its validity. */
	readonly authorizations = new Map<string, AuthorizationRecord>()
	nextUserId = 5000
	nextFileId = 1
	nextEventId = 1
	/**
	 * The world's time, Unix seconds: from the moment the world is made (and caught up with the
	 * wall clock when a saved world is loaded, cloud/state-file.ts), one second more per event.
	 */
	clock = wallSeconds()
	/** Each emulated domain's own state (sessions, privacy, 2FA, invite links...), made on first use. */
	private readonly stores = new Map<string, unknown>()
	/** Set by the cloud host: writes the world to disk now. */
	#saveNow?: () => void

	get reactions(): readonly string[] {
		return REACTIONS
	}

	/**
	 * The state of one domain in this world: `init()` the first time, the same object after. A domain
	 * module keeps its records here (one world per cloud, nothing at module level), as plain data: it
	 * persists as it is (see the rule above).
	 */
	store<T>(name: string, init: () => T): T {
		if (!this.stores.has(name)) {
			const state = init()
			// A live object in a store's first shape fails here, in the first test that uses it.
			encodeGraph(state)
			this.stores.set(name, state)
		}
		return this.stores.get(name) as T
	}

	/** The cloud host's writer, called by `durable()`. */
	setSaver(saveNow: (() => void) | undefined): void {
		this.#saveNow = saveNow
	}

	/**
	 * The change just made must be on disk before anyone is told of it (a log-in: the client's folder
	 * must never name an authorization the cloud has lost). A no-op for a world kept in memory only.
	 */
	durable(): void {
		this.#saveNow?.()
	}

	/** A new authorization of `userId` (a log-in): its key, for the client's folder. */
	authorize(userId: number): string {
		const key = Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString('base64url')
		this.authorizations.set(key, { userId, date: this.clock })
		return key
	}

	/** Ends an authorization; a logged-in client holding it logs out. */
	revoke(key: string): void {
		const record = this.authorizations.get(key)
		if (!record) return
		this.authorizations.delete(key)
		for (const l of [...(this.#listeners.get(record.userId) ?? [])]) if (l.key === key) l.revoked()
	}

	/** Appends to a group's event log, as TDLib's `getChatEventLog` reports it. */
	/** `date`: the moment of a change already stamped with `now()`, for the log to say the same moment. */
	logEvent(chat: ChatRecord, userId: number, action: Td.ChatEventAction, date = this.now()): ChatEventRecord {
		const event = { id: this.nextEventId++, date, userId, action }
		chat.events.push(event)
		return event
	}

	/**
	 * Makes `userId` a member of a group (a join by link, an approved request, an add). False when the
	 * user already was one, or is banned from it (a ban outlives every invite link). The caller logs
	 * the event it stands for.
	 */
	addMember(chat: ChatRecord, userId: number, role: Role = 'member'): boolean {
		if (chat.kind === 'private' || chat.members.has(userId) || this.isBanned(chat, userId)) return false
		chat.members.set(userId, newMember(role, 0, this.clock))
		return true
	}

	/** True while `userId` is banned from `chat`; a ban past its date is lifted here. */
	isBanned(chat: ChatRecord, userId: number): boolean {
		const ban = chat.banned.get(userId)
		if (!ban) return false
		if (ban.until === 0 || ban.until > this.clock) return true
		chat.banned.delete(userId)
		return false
	}

	now(): number {
		// Deterministic within a run and increasing: every call is one second later.
		return ++this.clock
	}

	userByPhone(phone: string): UserRecord | undefined {
		for (const u of this.users.values()) if (u.phone === phone) return u
		return undefined
	}

	privateChat(a: number, b: number, create = false): ChatRecord | undefined {
		const key = a < b ? `${a}:${b}` : `${b}:${a}`
		let chat = this.privates.get(key)
		if (!chat && create) {
			chat = {
				kind: 'private',
				id: 0,
				groupId: 0,
				title: '',
				members: new Map([
					[a, newMember('member', b, 0)],
					[b, newMember('member', a, 0)],
				]),
				banned: new Map(),
				messages: new Map(),
				lastServerId: 0,
				autoDeleteTime: 0,
				events: [],
			}
			this.privates.set(key, chat)
		}
		return chat
	}

	/** The supergroup or channel `supergroupId` if `viewerId` knows it (is a member). */
	supergroupFor(viewerId: number, supergroupId: number): ChatRecord | undefined {
		for (const c of this.groups.values()) {
			if (c.kind !== 'basicGroup' && c.groupId === supergroupId && c.members.has(viewerId)) return c
		}
		return undefined
	}

	/**
	 * The private chats each account opened without a message in them yet (TDLib's
	 * `createPrivateChat`, a username resolved, a public search): user id → the users it opened.
	 */
	private get opened(): Map<number, Set<number>> {
		return this.store<{ byViewer: Map<number, Set<number>> }>('opened-chats', () => ({ byViewer: new Map() }))
			.byViewer
	}

	/** `viewerId`'s TDLib knows its private chat with `userId` from now on (and makes it, if need be). */
	openPrivateChat(viewerId: number, userId: number): ChatRecord {
		const chat = this.privateChat(viewerId, userId, true)!
		let mine = this.opened.get(viewerId)
		if (!mine) {
			mine = new Set()
			this.opened.set(viewerId, mine)
		}
		mine.add(userId)
		return chat
	}

	/**
	 * Whether `viewerId` knows the private chat `chat`, as TDLib does for a user account: a message
	 * in it (sent or received) made it known, or the viewer opened it; a user's chat is not known
	 * because the user exists (TDLib's getChat answers "Chat not found" until createPrivateChat).
	 */
	knowsPrivateChat(viewerId: number, chat: ChatRecord): boolean {
		if (chat.lastServerId > 0) return true
		const other = this.chatIdFor(viewerId, chat)
		return other === viewerId || (this.opened.get(viewerId)?.has(other) ?? false)
	}

	/** The chat `chatId` as `viewerId` sees it, if the viewer knows it. */
	chatFor(viewerId: number, chatId: number): ChatRecord | undefined {
		if (chatId > 0) {
			const chat = this.users.has(chatId) ? this.privateChat(viewerId, chatId) : undefined
			return chat && this.knowsPrivateChat(viewerId, chat) ? chat : undefined
		}
		const chat = this.groups.get(chatId)
		return chat?.members.has(viewerId) ? chat : undefined
	}

	/** The TDLib chat id of `chat` for `viewerId`. */
	chatIdFor(viewerId: number, chat: ChatRecord): number {
		if (chat.kind !== 'private') return chat.id
		for (const id of chat.members.keys()) if (id !== viewerId) return id
		return viewerId
	}

	chatsOf(viewerId: number): ChatRecord[] {
		const out: ChatRecord[] = []
		for (const c of this.privates.values())
			if (c.members.has(viewerId) && this.knowsPrivateChat(viewerId, c)) out.push(c)
		for (const c of this.groups.values()) if (c.members.has(viewerId)) out.push(c)
		return out
	}

	addMessage(
		chat: ChatRecord,
		senderId: number,
		content: Td.MessageContent,
		extra: Partial<MessageRecord> = {},
	) {
		const serverId = ++chat.lastServerId
		const record: MessageRecord = {
			serverId,
			senderId,
			date: this.now(),
			editDate: 0,
			content,
			pinned: false,
			reactions: new Map(),
			...extra,
		}
		chat.messages.set(serverId, record)
		return record
	}

	message(chat: ChatRecord, messageId: number): MessageRecord | undefined {
		if (messageId <= 0 || messageId % MESSAGE_ID_SHIFT !== 0) return undefined
		return chat.messages.get(messageId / MESSAGE_ID_SHIFT)
	}

	/** The logged-in emulated clients of each account: who hears what happens in the world (live: not kept). */
	readonly #listeners = new Map<number, Set<UpdateListener>>()

	/** An emulated client logged in as `userId` hears the updates of its account from now on. */
	attach(userId: number, listener: UpdateListener): void {
		let set = this.#listeners.get(userId)
		if (!set) {
			set = new Set()
			this.#listeners.set(userId, set)
		}
		set.add(listener)
	}

	detach(userId: number, listener: UpdateListener): void {
		const set = this.#listeners.get(userId)
		set?.delete(listener)
		if (set?.size === 0) this.#listeners.delete(userId)
	}

	/**
	 * Tells every logged-in client of each of `userIds` what happened, as that account sees it
	 * (`build` gets the viewer; null: nothing for this one). `except` is the client that acted, which
	 * told itself already.
	 */
	notify(
		userIds: Iterable<number>,
		build: (viewerId: number) => Td.Update | null,
		except?: UpdateListener,
	): void {
		for (const userId of new Set(userIds)) {
			const set = this.#listeners.get(userId)
			if (!set) continue
			const update = build(userId)
			if (!update) continue
			for (const l of set) if (l !== except) l.emit(update)
		}
	}
}
