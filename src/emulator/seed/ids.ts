/** The seeded chats' ids, on their own: what a module below the seed (usernames) may name. */
export const SEED_CHATS = {
	basicGroup: -2001,
	supergroup: -1000000003001,
	channel: -1000000003002,
	/** A supergroup with topics on: threads are `messageTopicForum`s. */
	forum: -1000000003003,
} as const
