/**
 * The chats command group, the read side of an account: who it is, its chats and their histories,
 * searching them, reading them, joining and leaving, its contacts. TDLib's answers are assembled
 * where a client needs more than one call (a chat list page with each chat, a history page that
 * TDLib hands out in partial batches, contacts as users). It adds no route: it registers its
 * commands with the WebSocket gateway, like the other groups.
 */
import { defineCommandGroup, definePlugin } from 'userbot-gateway/plugin'
import { getChat } from './get-chat'
import { getChatHistory } from './get-chat-history'
import { getChats } from './get-chats'
import { getContacts } from './get-contacts'
import { getMe } from './get-me'
import { getMessage } from './get-message'
import { getUser } from './get-user'
import { getUserProfilePhotos } from './get-user-profile-photos'
import { importContacts } from './import-contacts'
import { joinChat } from './join-chat'
import { leaveChat } from './leave-chat'
import { readChat } from './read-chat'
import { removeContacts } from './remove-contacts'
import { searchChatMessages } from './search-chat-messages'
import { searchChats } from './search-chats'
import { searchContacts } from './search-contacts'
import { searchMessages } from './search-messages'
import { sendChatAction } from './send-chat-action'
import { viewMessages } from './view-messages'

export const chatsCommands = defineCommandGroup({
	id: 'commands-chats',
	commands: [
		getMe,
		getUser,
		getUserProfilePhotos,
		getChats,
		getChat,
		searchChats,
		joinChat,
		leaveChat,
		getChatHistory,
		getMessage,
		searchChatMessages,
		searchMessages,
		viewMessages,
		readChat,
		sendChatAction,
		getContacts,
		importContacts,
		removeContacts,
		searchContacts,
	],
})

export const chatsPlugin = definePlugin({
	id: 'commands-chats',
	commands: chatsCommands.commands,
})

export default chatsPlugin
