import type * as Td from 'tdlib-types'
import { defineCommand, fields, optionalBool, optionalInt, requiredInt } from 'userbot-gateway/plugin'
import { ChatsErrors as E, MAX_HISTORY_CALLS } from './errors'
import { historyLimit, historyOffset } from './limits'

/**
 * `get_chat_history {chat_id, from_message_id?, offset?, limit?}` → `getChatHistory`, newest first.
 * TDLib answers fewer messages than asked while it fetches them (the first call on a chat often
 * holds the last message alone), so the command asks again from the oldest one it has until it has
 * `limit` messages or TDLib has nothing older (the chat's start), at most 10 calls.
 */
export const getChatHistory = defineCommand({
	name: 'get_chat_history',
	policy: { action: 'read' },
	summary: 'Messages of a chat, newest first, from a message (0: the newest), as many as asked up to 100.',
	result: {
		description:
			"`{messages, next_from_message_id}`: the messages newest first; `next_from_message_id` (the oldest one's id) pages further back, 0 at the start of the chat.",
	},
	examples: [{ chat_id: -1000000003001 }, { chat_id: -1000000003001, from_message_id: 10485760, limit: 50 }],
	methods: ['getChatHistory', 'createPrivateChat'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		from_message_id: optionalInt('from_message_id'),
		offset: historyOffset,
		limit: historyLimit(50),
		only_local: optionalBool('only_local'),
	}),
	run: async (input, ctx) => {
		const limit = input.limit ?? 50
		const messages: Td.message[] = []
		const seen = new Set<number>()
		let from = input.from_message_id ?? 0
		let offset = input.offset ?? 0
		let atStart = false
		for (let call = 0; call < MAX_HISTORY_CALLS && messages.length < limit; call++) {
			const want = limit - messages.length
			const batch = await ctx.invoke({
				_: 'getChatHistory',
				chat_id: input.chat_id,
				from_message_id: from,
				offset,
				// From the oldest one we have, that one comes back first: ask one more.
				limit: Math.min(100, messages.length ? want + 1 : want),
				only_local: input.only_local ?? false,
			})
			const fresh = batch.messages.filter((m): m is Td.message => !!m && !seen.has(m.id))
			for (const m of fresh) seen.add(m.id)
			messages.push(...fresh)
			if (fresh.length === 0) {
				atStart = true
				break
			}
			from = fresh.at(-1)!.id
			offset = 0
		}
		const page = messages.slice(0, limit)
		const oldest = page.at(-1)
		return { messages: page, next_from_message_id: atStart || !oldest ? 0 : oldest.id }
	},
})
