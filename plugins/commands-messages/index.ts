/**
 * The messages command group: sending, replying, editing, forwarding, deleting and pinning messages,
 * reactions, auto-delete timers, and conversations (wait_for_message, send_and_wait: waiting for the
 * next message), as the 14 commands of docs/commands.md#commands-messages mapped onto TDLib 1.8.65
 * (docs/tdlib-mapping.md#messages). It adds no route: it registers its commands with the
 * WebSocket gateway, which checks the envelope, the caller's company and the deadline, and sends every reply.
 * Each command is one file; the wire error strings are data in `errors.ts`.
 */
import { defineCommandGroup, definePlugin } from 'userbot-gateway/plugin'
import { deleteMessages } from './delete-messages'
import { editMessage } from './edit-message'
import { forwardMessage } from './forward-message'
import { getDefaultMessageAutoDeleteTime } from './get-default-message-auto-delete-time'
import { getFile } from './get-file'
import { pinMessage } from './pin-message'
import { replyMessage } from './reply-message'
import { sendAndWait } from './send-and-wait'
import { sendMessage } from './send-message'
import { setChatMessageAutoDeleteTime } from './set-chat-message-auto-delete-time'
import { setDefaultMessageAutoDeleteTime } from './set-default-message-auto-delete-time'
import { setReaction } from './set-reaction'
import { unpinMessage } from './unpin-message'
import { waitForMessage } from './wait-for-message'

export const messagesCommands = defineCommandGroup({
	id: 'commands-messages',
	commands: [
		sendMessage,
		deleteMessages,
		forwardMessage,
		replyMessage,
		editMessage,
		pinMessage,
		unpinMessage,
		setReaction,
		getDefaultMessageAutoDeleteTime,
		setDefaultMessageAutoDeleteTime,
		setChatMessageAutoDeleteTime,
		getFile,
		waitForMessage,
		sendAndWait,
	],
})

export const messagesPlugin = definePlugin({
	id: 'commands-messages',
	commands: messagesCommands.commands,
})
