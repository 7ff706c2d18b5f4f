import { chatOf, userOf } from '../objects'
import { chatId, command, type Method } from './call'

/** The account, its chats and their members (docs/bot-api.md#methods). */
export const CHAT_METHODS: Readonly<Record<string, Method>> = {
	getMe: async (call) => userOf(await command(call, 'get_me', {})),
	getChat: async (call) => chatOf(await command(call, 'get_chat', { chat_id: chatId(call.params) })),
}
