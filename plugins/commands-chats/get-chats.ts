import type * as Td from 'tdlib-types'
import {
	type CommandContext,
	defineCommand,
	documented,
	fields,
	optionalInt,
	optionalString,
} from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { chatSummaries } from './chat-summary'
import { DEFAULT_CHATS_LIMIT, ChatsErrors as E, MAX_CHATS_LIMIT } from './errors'
import { pageLimit, pageOffset } from './limits'

/** loadChats calls at most: TDLib loads a list in chunks and answers 404 once it has it all. */
const MAX_LOAD_CALLS = 10

const chatList = (list: string | undefined, folderId: number | undefined): Td.ChatList$Input =>
	folderId !== undefined
		? { _: 'chatListFolder', chat_folder_id: folderId }
		: list === 'archive'
			? { _: 'chatListArchive' }
			: { _: 'chatListMain' }

/** Loads the list until it holds `wanted` chats or TDLib says it is all there (404). */
async function loadUpTo(ctx: CommandContext, list: Td.ChatList$Input, wanted: number) {
	for (let i = 0; i < MAX_LOAD_CALLS; i++) {
		const have = await ctx.invoke({ _: 'getChats', chat_list: list, limit: wanted })
		if (have.chat_ids.length >= wanted) return have
		try {
			await ctx.invoke({ _: 'loadChats', chat_list: list, limit: wanted - have.chat_ids.length })
		} catch (err) {
			if ((err as { code?: number }).code === 404) break
			throw err
		}
	}
	return ctx.invoke({ _: 'getChats', chat_list: list, limit: wanted })
}

/**
 * `get_chats {chat_list?, folder_id?, offset?, limit?}`: a page of a chat list, each chat assembled
 * (`loadChats` until the page is there, `getChats`, then `getChat` for each).
 */
export const getChats = defineCommand({
	name: 'get_chats',
	policy: { action: 'read' },
	summary:
		'A page of a chat list (main, archive or a folder), each chat with title, type, unread count, last message and photo.',
	result: {
		description:
			"`{chats: [{id, title, type, is_channel (a supergroup), unread_count, last_message, photo_file_ids}], offset, next_offset}`; `next_offset` is 0 at the list's end.",
	},
	examples: [{}, { chat_list: 'archive', limit: 10 }, { folder_id: 2, offset: 20, limit: 20 }],
	flood: 'dialogs',
	methods: ['loadChats', 'getChats', 'getChat'],
	input: fields({
		chat_list: documented(
			v.pipe(
				optionalString('chat_list'),
				v.check((s) => s === undefined || s === 'main' || s === 'archive', E.CHAT_LIST),
			),
			{ default: 'main' },
		),
		folder_id: v.pipe(
			optionalInt('folder_id'),
			v.check((n) => n === undefined || n > 0, E.CHAT_LIST),
		),
		offset: pageOffset,
		limit: pageLimit(MAX_CHATS_LIMIT, E.CHATS_LIMIT_RANGE, DEFAULT_CHATS_LIMIT),
	}),
	run: async (input, ctx) => {
		const list = chatList(input.chat_list, input.folder_id)
		const offset = input.offset ?? 0
		const limit = input.limit ?? DEFAULT_CHATS_LIMIT
		const ids = (await loadUpTo(ctx, list, offset + limit + 1)).chat_ids
		const page = ids.slice(offset, offset + limit)
		const chats = await chatSummaries(ctx, page)
		return { chats, offset, next_offset: ids.length > offset + limit ? offset + limit : 0 }
	},
})
