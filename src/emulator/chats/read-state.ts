import type { ChatRecord, World } from '../world'

/**
 * How far each account has read each chat (the server's `read_inbox_max_id`), for the unread
 * counts of `chat` and `updateChatReadInbox`. Nothing stored: nothing read, so the seed's incoming
 * messages start unread. Sending in a chat reads it up to there, as Telegram's server does.
 */
const readStore = (world: World) =>
	world.store<{ lastRead: Map<string, number> }>('read-state', () => ({ lastRead: new Map() }))

const keyOf = (world: World, userId: number, chat: ChatRecord) => `${userId}:${world.chatIdFor(userId, chat)}`

/** The server id of the last message `userId` has read in `chat`. */
export function lastReadInbox(world: World, userId: number, chat: ChatRecord): number {
	let read = readStore(world).lastRead.get(keyOf(world, userId, chat)) ?? 0
	for (const m of chat.messages.values()) if (m.senderId === userId && m.serverId > read) read = m.serverId
	return read
}

export function unreadCount(world: World, userId: number, chat: ChatRecord): number {
	const read = lastReadInbox(world, userId, chat)
	let n = 0
	for (const m of chat.messages.values()) if (m.senderId !== userId && m.serverId > read) n++
	return n
}

/** Reads `chat` up to `serverId`; false when that was read already (nothing changes). */
export function markRead(world: World, userId: number, chat: ChatRecord, serverId: number): boolean {
	if (serverId <= lastReadInbox(world, userId, chat)) return false
	readStore(world).lastRead.set(keyOf(world, userId, chat), serverId)
	return true
}
