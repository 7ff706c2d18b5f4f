import { chatObject } from './objects'
import { SEED_CHATS } from './seed'
import { fail, type Handlers } from './session'
import type { ChatRecord, World } from './world'

/**
 * Public usernames: every seeded user's (`alice`, `bob`...) and those of the seeded supergroups and
 * channel, which are public here. `searchPublicChat` resolves them as the cloud's
 * `contacts.resolveUsername` does; `joinChatByInviteLink` lives with the invite links
 * (invite-joins.ts).
 */
const PUBLIC_GROUPS: Record<string, number> = {
	emulator_lounge: SEED_CHATS.supergroup,
	emulator_news: SEED_CHATS.channel,
	emulator_forum: SEED_CHATS.forum,
}

interface PublicChats {
	byUsername: Map<string, ChatRecord>
}

const publicChats = (world: World) =>
	world.store<PublicChats>('public-chats', () => {
		const byUsername = new Map<string, ChatRecord>()
		for (const [username, id] of Object.entries(PUBLIC_GROUPS)) {
			const chat = world.groups.get(id)
			if (chat) byUsername.set(username, chat)
		}
		return { byUsername }
	})

/** TDLib's `clean_username`: dots removed, lower case; then one leading `@` dropped. */
function cleanUsername(raw: string): string {
	const cleaned = raw.replaceAll('.', '').toLowerCase()
	return cleaned.startsWith('@') ? cleaned.slice(1) : cleaned
}

export const publicChatHandlers: Handlers = {
	searchPublicChat(s, req) {
		const username = cleanUsername(req.username ?? '')
		// TDLib's own check, before any request to the server (its code is 200).
		if (username === '') fail('Username is invalid', 200)
		for (const user of s.world.users.values()) {
			if (user.username?.toLowerCase() === username) {
				const chat = s.world.privateChat(s.userId, user.id, true)!
				return chatObject(s.world, chat, s.userId)
			}
		}
		const group = publicChats(s.world).byUsername.get(username)
		if (group) return chatObject(s.world, group, s.userId)
		// The server's answer to contacts.resolveUsername for a name nobody holds.
		return fail('USERNAME_NOT_OCCUPIED')
	},
}
