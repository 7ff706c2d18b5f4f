import { addChatAdministrator } from './add-chat-administrator'
import { removeChatAdministrator } from './remove-chat-administrator'
import { transferChatOwnership } from './transfer-chat-ownership'

/** add_chat_administrator, remove_chat_administrator, transfer_chat_ownership. */
export const administratorCommands = [
	addChatAdministrator,
	removeChatAdministrator,
	transferChatOwnership,
] as const
