import { SEED_CHATS } from '../seed/ids'
import type { ChatRecord, World } from '../world'

/**
 * Public usernames: every seeded user's (`alice`, `bob`...) and those of the seeded supergroups and
 * channel, which are public here. `searchPublicChat` resolves them as the cloud's
 * `contacts.resolveUsername` does; `joinChatByInviteLink` lives with the invite links
 * (invites/joins.ts).
 */
const PUBLIC_GROUPS: Record<string, number> = {
	emulator_lounge: SEED_CHATS.supergroup,
	emulator_news: SEED_CHATS.channel,
	emulator_forum: SEED_CHATS.forum,
}

interface PublicChats {
	byUsername: Map<string, ChatRecord>
}

export const publicChats = (world: World) =>
	world.store<PublicChats>('public-chats', () => {
		const byUsername = new Map<string, ChatRecord>()
		for (const [username, id] of Object.entries(PUBLIC_GROUPS)) {
			const chat = world.groups.get(id)
			if (chat) byUsername.set(username, chat)
		}
		return { byUsername }
	})

/** The public username of a supergroup or channel, or undefined for one that has none. */
export function publicUsername(world: World, chat: ChatRecord): string | undefined {
	for (const [name, c] of publicChats(world).byUsername) if (c === chat) return name
	return undefined
}
