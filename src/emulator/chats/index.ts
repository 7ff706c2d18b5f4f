import type * as Td from 'tdlib-types'
import { canWrite, requireChat } from '../messages/access'
import { chatObject, lastMessage, supergroupObject, userObject } from '../objects'
import { contactFlags } from '../people'
import { fail, type Handlers, OK } from '../session'
import { knownChat } from './public'

/** Users, chats and the chat list; options; TDLib's test methods. */

const VERSION: Td.optionValueString = { _: 'optionValueString', value: '1.8.65' }

export const chatHandlers: Handlers = {
	getMe(s) {
		return userObject(s.world.users.get(s.userId)!, s.userId)
	},
	getUser(s, req) {
		const userId = req.user_id ?? 0
		if (userId <= 0) fail('Invalid user identifier')
		const user = s.world.users.get(userId) ?? fail('User not found')
		return { ...userObject(user, s.userId), ...contactFlags(s.world, s.userId, userId) }
	},
	getChat(s, req) {
		// TDLib's load_dialog refuses an impossible identifier before looking for the chat.
		if (!req.chat_id) fail('Invalid chat identifier specified')
		return chatObject(s.world, knownChat(s, req.chat_id), s.userId)
	},
	getSupergroup(s, req) {
		const supergroupId = req.supergroup_id ?? 0
		if (supergroupId <= 0) fail('Invalid supergroup identifier')
		const chat = s.world.supergroupFor(s.userId, supergroupId) ?? fail('Supergroup not found')
		return supergroupObject(s.world, chat, s.userId)
	},
	getChats(s, req) {
		const limit = req.limit ?? 0
		if (limit <= 0) fail('Parameter limit must be positive')
		// Nothing is archived and there are no folders in the emulated cloud.
		if (req.chat_list?._ === 'chatListFolder') fail('Chat list not found')
		if (req.chat_list?._ === 'chatListArchive') return { _: 'chats', total_count: 0, chat_ids: [] }
		const chats = s.world
			.chatsOf(s.userId)
			.map((c) => ({ id: s.world.chatIdFor(s.userId, c), date: lastMessage(c)?.date ?? 0 }))
			.sort((a, b) => b.date - a.date || b.id - a.id)
		return { _: 'chats', total_count: chats.length, chat_ids: chats.slice(0, limit).map((c) => c.id) }
	},
	loadChats(s, req) {
		if ((req.limit ?? 0) <= 0) fail('Parameter limit must be positive')
		if (req.chat_list?._ === 'chatListFolder') fail('Chat list not found')
		// TDLib answers 404 once the whole list is loaded (the archive is empty: at once).
		if (s.chatsLoaded || req.chat_list?._ === 'chatListArchive') return fail('Not Found', 404)
		s.chatsLoaded = true
		return OK
	},
	createPrivateChat(s, req) {
		const userId = req.user_id ?? 0
		if (!s.world.users.has(userId)) fail('User not found')
		const chat = s.world.openPrivateChat(s.userId, userId)
		return chatObject(s.world, chat, s.userId)
	},
	/**
	 * Shows the chat's other members an action (typing...). TDLib checks the chat and the right to
	 * write in it; the emulator delivers no `updateChatAction` to the others (they are gone in 5 s).
	 */
	sendChatAction(s, req) {
		const chat = requireChat(s, req.chat_id)
		if (!req.action) fail('Action must be non-empty')
		if (!canWrite(chat, s.userId)) fail('Have no write access to the chat')
		return OK
	},
	getOption(s, req) {
		const name = req.name ?? ''
		if (name === 'version') return VERSION
		return s.options.get(name) ?? { _: 'optionValueEmpty' }
	},
	setOption(s, req) {
		const name = req.name ?? ''
		// TDLib's OptionManager: the application's own options start with x (any case), up to 255
		// bytes; of TDLib's settable options the emulator keeps none, so every other name is refused.
		if (name[0] !== 'x' && name[0] !== 'X') fail("Option can't be set")
		if (Buffer.byteLength(name) > 255) fail('Option name is too long')
		const value = req.value
		if (!value || value._ === 'optionValueEmpty') s.options.delete(name)
		else if (value._ === 'optionValueBoolean')
			s.options.set(name, { _: 'optionValueBoolean', value: !!value.value })
		else if (value._ === 'optionValueInteger')
			s.options.set(name, { _: 'optionValueInteger', value: String(value.value ?? 0) })
		else s.options.set(name, { _: 'optionValueString', value: value.value ?? '' })
		return OK
	},
	setNetworkType(s, req) {
		s.setNetwork(req.type?._ !== 'networkTypeNone')
		return OK
	},
	setLogVerbosityLevel: () => OK,
	testCallEmpty: () => OK,
	testCallString: (_s, req) => ({ _: 'testString', value: req.x ?? '' }),
	testSquareInt: (_s, req) => ({ _: 'testInt', value: (req.x ?? 0) ** 2 }),
	testReturnError: (_s, req) => fail(req.error?.message ?? '', req.error?.code ?? 0),
}
