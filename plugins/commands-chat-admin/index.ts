/**
 * The chat administration and invites command group: administrators (promote, demote, transfer ownership) and
 * invite links (create, edit, revoke, delete, replace the primary one, subscription links, join requests and
 * the members who joined by a link), as the 16 commands of docs/commands.md#commands-chat-admin mapped onto
 * TDLib 1.8.65 (docs/tdlib-mapping.md#chat-administration-and-invites). It adds no route: it registers its
 * commands with the WebSocket gateway. Each command is one file; the wire error strings are data in
 * `errors.ts`.
 */
import { defineCommandGroup, definePlugin } from 'userbot-gateway/plugin'
import { administratorCommands } from './administrators'
import { inviteLinkCommands } from './invite-links'

export const chatAdminCommands = defineCommandGroup({
	id: 'commands-chat-admin',
	commands: [...administratorCommands, ...inviteLinkCommands],
})

export const chatAdminPlugin = definePlugin({
	id: 'commands-chat-admin',
	commands: chatAdminCommands.commands,
})
