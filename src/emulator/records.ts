import type * as Td from 'tdlib-types'
import type { BanRecord, MemberRecord } from './members/records'

/**
 * The cloud's records (world.ts holds them): users, chats, messages, an event log's entries,
 * authorizations, as plain data that persists as it is (the rule in world.ts).
 */

export type ChatKind = 'private' | 'basicGroup' | 'supergroup' | 'channel'

export interface UserRecord {
	id: number
	firstName: string
	lastName: string
	/** The profile's bio (`userFullInfo.bio`). */
	bio?: string
	username?: string
	/** Digits only; set for accounts that can log in. */
	phone?: string
	password?: { value: string; hint: string }
	defaultAutoDeleteTime: number
	/** The profile photo's file (one size kept), if the user has one; everyone may see it. */
	photoFileId?: number
	/** When the profile photo was set (Unix time). */
	photoDate?: number
}

export interface MessageRecord {
	serverId: number
	senderId: number
	date: number
	editDate: number
	content: Td.MessageContent
	pinned: boolean
	albumId?: string
	forwardedFrom?: number
	/** server id of the message replied to, in the same chat */
	replyTo?: number
	/** The thread or forum topic it was sent to. */
	topic?: Td.MessageTopic
	/** Sent with `messageSendOptions.protect_content`: it can't be forwarded or saved. */
	protectedContent?: boolean
	/** emoji → user ids */
	reactions: Map<string, Set<number>>
}

/** One entry of a group's event log (`getChatEventLog`: the last 48 hours, admins only). */
export interface ChatEventRecord {
	/** Increasing per world; TDLib writes it as an int64 string. */
	id: number
	date: number
	/** Who did it. */
	userId: number
	action: Td.ChatEventAction
}

export interface ChatRecord {
	kind: ChatKind
	/** Group chats: their TDLib chat id. Private chats: 0 (the id depends on the viewer). */
	id: number
	/** basic group or supergroup id */
	groupId: number
	title: string
	/** Private chats: the two users. Groups: the members present, by user id, in the order they joined. */
	members: Map<number, MemberRecord>
	/** Supergroups and channels: banned users (basic groups have no ban list: a ban there is a kick). */
	banned: Map<number, BanRecord>
	/** Groups: what a member who is no administrator may do; default: everything (groups), nothing (channels). */
	permissions?: Td.chatPermissions
	messages: Map<number, MessageRecord>
	lastServerId: number
	autoDeleteTime: number
	/** Supergroups: topics are on (a forum). */
	isForum?: boolean
	/** Supergroups: seconds between two messages of a member who is no administrator (slow mode). */
	slowModeDelay?: number
	/** Groups: the file of the chat's photo (files.ts), if it has one. */
	photoFileId?: number
	/** Groups: the event log, oldest first (`logEvent` appends). */
	events: ChatEventRecord[]
}

export const MESSAGE_ID_SHIFT = 2 ** 20

/** An emulated client, as the world reaches it. */
export interface UpdateListener {
	/** The authorization it logged in with (its auth key, in Telegram's terms). */
	readonly key: string
	emit(update: Td.Update): void
	/** Another session of the account terminated this one: the client logs out. */
	revoked(): void
}

/** One authorization of the cloud (Telegram's auth key): made at log-in, gone at log-out or when terminated. */
export interface AuthorizationRecord {
	userId: number
	date: number
}
