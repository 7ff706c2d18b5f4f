/**
 * An example command group written as any third party would write one: it imports only
 * `userbot-gateway/plugin` (and valibot), and loads with `PLUGINS=...,./examples/chats` or
 * `createApp(config, { plugins: [...builtInPlugins, chatsPlugin] })`, with no change to the core.
 */
import { definePlugin } from 'userbot-gateway/plugin'
import { getChat } from './get-chat'
import { getChats } from './get-chats'
import { joinChatByInviteLink } from './join-chat-by-invite-link'
import { searchPublicChat } from './search-public-chat'

export const chatsPlugin = definePlugin({
	id: 'chats',
	commands: [getChats, getChat, searchPublicChat, joinChatByInviteLink],
})

export default chatsPlugin
