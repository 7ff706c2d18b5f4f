import type * as Td from 'tdlib-types'
import { messageObject } from '../objects'
import type { ChatRecord, World } from '../world'

/**
 * A service message in a group (someone joined, was added, left, was removed): stored as the cloud
 * stores it, and every member's client hears of it as `updateNewMessage`, as TDLib tells a user
 * account (its `updateChatMember` is for bots only). `alsoTell`: someone no longer a member who
 * should still hear it (the one removed).
 */
export function postService(
	world: World,
	chat: ChatRecord,
	senderId: number,
	content: Td.MessageContent,
	alsoTell: number[] = [],
): void {
	const record = world.addMessage(chat, senderId, content)
	world.notify([...chat.members.keys(), ...alsoTell], (viewer) => ({
		_: 'updateNewMessage',
		message: messageObject(world, chat, record, viewer),
	}))
}
