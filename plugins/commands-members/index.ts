/**
 * The members command group: listing a chat's members and recent actions, adding, removing and restoring
 * members, as the 6 commands of docs/commands.md#commands-members mapped onto TDLib 1.8.65
 * (docs/tdlib-mapping.md#members). It adds no route: it registers its commands with the WebSocket gateway,
 * which checks the envelope, the caller's company and the deadline, and sends every reply. Each command is
 * one file; the wire error strings are data in `errors.ts`.
 */
import { defineCommandGroup, definePlugin } from 'userbot-gateway/plugin'
import { addChatMember } from './add-chat-member'
import { addChatMembers } from './add-chat-members'
import { banChatMember } from './ban-chat-member'
import { getChatMember } from './get-chat-member'
import { getChatMembers } from './get-chat-members'
import { getChatRecentActions } from './get-chat-recent-actions'
import { removeChatMember } from './remove-chat-member'
import { restoreChatMember } from './restore-chat-member'
import { restrictChatMember } from './restrict-chat-member'

export const membersCommands = defineCommandGroup({
	id: 'commands-members',
	commands: [
		getChatMembers,
		getChatMember,
		getChatRecentActions,
		addChatMember,
		addChatMembers,
		removeChatMember,
		restoreChatMember,
		banChatMember,
		restrictChatMember,
	],
})

export const membersPlugin = definePlugin({
	id: 'commands-members',
	commands: membersCommands.commands,
})
