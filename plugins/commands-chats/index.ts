/**
 * The chats command group, the read side of an account: who it is, its chats and their histories,
 * one message. TDLib's answers are assembled where a client needs more than one call (a chat list
 * page with each chat, a history page that TDLib hands out in partial batches). It adds no route:
 * it registers its commands with the WebSocket gateway, like the other groups.
 */
import { defineCommandGroup, definePlugin } from 'userbot-gateway/plugin'
import { getChat } from './get-chat'
import { getChatHistory } from './get-chat-history'
import { getChats } from './get-chats'
import { getMe } from './get-me'
import { getMessage } from './get-message'
import { getUser } from './get-user'

export const chatsCommands = defineCommandGroup({
	id: 'commands-chats',
	commands: [getMe, getUser, getChats, getChat, getChatHistory, getMessage],
})

export const chatsPlugin = definePlugin({
	id: 'commands-chats',
	commands: chatsCommands.commands,
})

export default chatsPlugin
