import type { CommandContext } from 'userbot-gateway/plugin'

/**
 * A chat as the group's lists show it (get_chats, search_chats): what a chat list needs to draw a
 * row, from TDLib's `getChat`, one call per chat (TDLib answers it from memory for a chat it knows).
 */
export async function chatSummaries(ctx: CommandContext, ids: readonly number[]) {
	const chats = []
	for (const chat_id of ids) {
		const chat = await ctx.invoke({ _: 'getChat', chat_id })
		chats.push({
			id: chat.id,
			title: chat.title,
			type: chat.type._,
			...(chat.type._ === 'chatTypeSupergroup' ? { is_channel: chat.type.is_channel } : {}),
			unread_count: chat.unread_count,
			last_message: chat.last_message ?? null,
			photo_file_ids: chat.photo ? { small: chat.photo.small.id, big: chat.photo.big.id } : null,
		})
	}
	return chats
}

/** The users of a list of ids (`getUser` each), for the contacts commands: names, not bare ids. */
export async function usersOf(ctx: CommandContext, ids: readonly number[]) {
	const users = []
	for (const user_id of ids) users.push(await ctx.invoke({ _: 'getUser', user_id }))
	return users
}
