import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type * as Td from 'tdlib-types'
import { SEED_CHATS } from '../../src/emulator'
import { TdError } from '../../src/runtime/telegram/types'
import { login, startRuntime, type TestRuntime } from '../supervisor/helpers'

const ALICE = 1
const BOB_CHAT = 1002
const TEL_CHAT = 777000
const SHIFT = 2 ** 20
const text = (t: string): Td.inputMessageText$Input => ({
	_: 'inputMessageText',
	text: { _: 'formattedText', text: t },
})

const tdError = async (p: Promise<unknown>) => {
	try {
		await p
	} catch (err) {
		expect(err).toBeInstanceOf(TdError)
		return (err as TdError).message
	}
	throw new Error('expected a TdError')
}

describe('emulator messages', () => {
	let t: TestRuntime
	beforeAll(async () => {
		t = await startRuntime()
		await login(t.rt, ALICE, '9996611111')
	})
	afterAll(() => t.stop())
	const invoke: TestRuntime['rt']['invoke'] = (id, req, opts) => t.rt.invoke(id, req, opts)

	it('lists and loads chats, gets a chat, creates a private chat', async () => {
		expect(await invoke(ALICE, { _: 'loadChats', chat_list: { _: 'chatListMain' }, limit: 20 })).toEqual({
			_: 'ok',
		})
		expect(
			await tdError(invoke(ALICE, { _: 'loadChats', chat_list: { _: 'chatListMain' }, limit: 20 })),
		).toBe('Not Found')
		const chats = await invoke(ALICE, { _: 'getChats', limit: 50 })
		expect(chats.chat_ids).toEqual(
			expect.arrayContaining([BOB_CHAT, SEED_CHATS.basicGroup, SEED_CHATS.supergroup, SEED_CHATS.channel]),
		)
		const chat = await invoke(ALICE, { _: 'getChat', chat_id: SEED_CHATS.supergroup })
		expect(chat).toMatchObject({
			_: 'chat',
			title: 'Emulator Lounge',
			type: { _: 'chatTypeSupergroup', is_channel: false },
		})
		expect(chat.last_message?._).toBe('message')
		expect(await tdError(invoke(ALICE, { _: 'getChat', chat_id: 1005 }))).toBe('Chat not found')
		const created = await invoke(ALICE, { _: 'createPrivateChat', user_id: 1005, force: false })
		expect(created).toMatchObject({
			id: 1005,
			title: 'Eve Evans',
			type: { _: 'chatTypePrivate', user_id: 1005 },
		})
		expect(await tdError(invoke(ALICE, { _: 'createPrivateChat', user_id: 9, force: false }))).toBe(
			'User not found',
		)
	})

	it('sends a text message: pending temporary message, then updateMessageSendSucceeded', async () => {
		const sent = await invoke(ALICE, {
			_: 'sendMessage',
			chat_id: BOB_CHAT,
			input_message_content: text('hello bob'),
		})
		expect(sent).toMatchObject({
			_: 'message',
			chat_id: BOB_CHAT,
			is_outgoing: true,
			sending_state: { _: 'messageSendingStatePending' },
			content: { _: 'messageText', text: { text: 'hello bob' } },
		})
		expect(sent.id % SHIFT).not.toBe(0)
		const final = await invoke(ALICE, { _: 'getMessage', chat_id: BOB_CHAT, message_id: sent.id - 1 })
		expect(final.sending_state).toBeUndefined()
		expect(final.content).toEqual(sent.content)
	})

	it('refuses empty text, unknown chats and chats without write access', async () => {
		expect(
			await tdError(
				invoke(ALICE, { _: 'sendMessage', chat_id: BOB_CHAT, input_message_content: text('  ') }),
			),
		).toBe('Text must be non-empty')
		expect(
			await tdError(invoke(ALICE, { _: 'sendMessage', chat_id: -42, input_message_content: text('x') })),
		).toBe('Chat not found')
		expect(
			await tdError(
				invoke(ALICE, { _: 'sendMessage', chat_id: SEED_CHATS.channel, input_message_content: text('x') }),
			),
		).toBe('Have no write access to the chat')
	})

	it('sends every media kind from a remote id, a file id and a local file', async () => {
		const local = join(t.dataDir, 'pic.jpg')
		writeFileSync(local, 'not really a jpeg')
		const remote: Td.InputFile$Input = { _: 'inputFileRemote', id: 'AgACAgIAAxkBAAIBbWZ' }
		const url: Td.InputFile$Input = { _: 'inputFileRemote', id: 'https://example.com/cat.gif' }
		const kinds: Array<[Td.InputMessageContent$Input, string]> = [
			[
				{ _: 'inputMessagePhoto', photo: { _: 'inputPhoto', photo: { _: 'inputFileLocal', path: local } } },
				'messagePhoto',
			],
			[{ _: 'inputMessageVideo', video: { _: 'inputVideo', video: remote, duration: 3 } }, 'messageVideo'],
			[{ _: 'inputMessageDocument', document: { _: 'inputDocument', document: remote } }, 'messageDocument'],
			[{ _: 'inputMessageAudio', audio: { _: 'inputAudio', audio: remote, title: 'song' } }, 'messageAudio'],
			[
				{ _: 'inputMessageAnimation', animation: { _: 'inputAnimation', animation: url } },
				'messageAnimation',
			],
			[{ _: 'inputMessageVoiceNote', voice_note: remote, duration: 2 }, 'messageVoiceNote'],
			[{ _: 'inputMessageVideoNote', video_note: remote, length: 240 }, 'messageVideoNote'],
			[{ _: 'inputMessageSticker', sticker: { _: 'inputFileId', id: 1 }, emoji: '🙂' }, 'messageSticker'],
		]
		for (const [content, kind] of kinds) {
			const m = await invoke(ALICE, {
				_: 'sendMessage',
				chat_id: SEED_CHATS.supergroup,
				input_message_content: content,
			})
			expect(m.content._).toBe(kind as Td.MessageContent['_'])
		}
		const bad = await tdError(
			invoke(ALICE, {
				_: 'sendMessage',
				chat_id: BOB_CHAT,
				input_message_content: {
					_: 'inputMessageDocument',
					document: { _: 'inputDocument', document: { _: 'inputFileRemote', id: '!' } },
				},
			}),
		)
		expect(bad).toStartWith('Wrong remote file identifier specified')
	})

	it('answers getSupergroup with is_forum and the viewer status', async () => {
		const forumChat = await invoke(ALICE, { _: 'getChat', chat_id: SEED_CHATS.forum })
		expect(forumChat.type).toEqual({ _: 'chatTypeSupergroup', supergroup_id: 3003, is_channel: false })
		expect(await invoke(ALICE, { _: 'getSupergroup', supergroup_id: 3003 })).toMatchObject({
			_: 'supergroup',
			id: 3003,
			is_forum: true,
			is_channel: false,
			member_count: 2,
			status: { _: 'chatMemberStatusCreator', is_member: true },
		})
		expect(await invoke(ALICE, { _: 'getSupergroup', supergroup_id: 3001 })).toMatchObject({
			is_forum: false,
			status: { _: 'chatMemberStatusAdministrator' },
		})
		expect(await invoke(ALICE, { _: 'getSupergroup', supergroup_id: 3002 })).toMatchObject({
			is_forum: false,
			is_channel: true,
			status: { _: 'chatMemberStatusMember' },
		})
		expect(await tdError(invoke(ALICE, { _: 'getSupergroup', supergroup_id: 2001 }))).toBe(
			'Supergroup not found',
		)
	})

	it('sends to a forum topic or a thread, checking the topic as TDLib does', async () => {
		const sendTo = (chat_id: number, topic_id: Td.MessageTopic$Input) =>
			invoke(ALICE, { _: 'sendMessage', chat_id, topic_id, input_message_content: text('topic') })
		const inForum = await sendTo(SEED_CHATS.forum, { _: 'messageTopicForum', forum_topic_id: 1 })
		expect(inForum.topic_id).toEqual({ _: 'messageTopicForum', forum_topic_id: 1 })
		const thread = { _: 'messageTopicThread', message_thread_id: SHIFT } as const
		expect((await sendTo(SEED_CHATS.supergroup, thread)).topic_id).toEqual(thread)
		expect((await sendTo(SEED_CHATS.forum, thread)).topic_id).toEqual(thread)
		expect(await tdError(sendTo(SEED_CHATS.supergroup, { _: 'messageTopicForum', forum_topic_id: 1 }))).toBe(
			'Chat is not a forum',
		)
		expect(await tdError(sendTo(BOB_CHAT, { _: 'messageTopicForum', forum_topic_id: 1 }))).toBe(
			'Chat is not a forum',
		)
		expect(await tdError(sendTo(SEED_CHATS.forum, { _: 'messageTopicForum', forum_topic_id: 0 }))).toBe(
			'Invalid topic identifier specified',
		)
		expect(await tdError(sendTo(SEED_CHATS.basicGroup, thread))).toBe("Chat doesn't have threads")
		expect(await tdError(sendTo(BOB_CHAT, thread))).toBe("Chat doesn't have threads")
		expect(
			await tdError(sendTo(SEED_CHATS.supergroup, { _: 'messageTopicThread', message_thread_id: 5 })),
		).toBe('Invalid message thread identifier specified')
		expect(
			await tdError(
				sendTo(SEED_CHATS.forum, { _: 'messageTopicDirectMessages', direct_messages_chat_topic_id: 1 }),
			),
		).toBe('Chat is not an administered channel direct messages chat')
		// A message sent without a topic has none.
		const plain = await invoke(ALICE, {
			_: 'sendMessage',
			chat_id: SEED_CHATS.forum,
			input_message_content: text('plain'),
		})
		expect(plain.topic_id).toBeUndefined()
	})

	it('sends an album of photos sharing an album id', async () => {
		const photo = (id: string): Td.InputMessageContent$Input => ({
			_: 'inputMessagePhoto',
			photo: { _: 'inputPhoto', photo: { _: 'inputFileRemote', id } },
		})
		const album = await invoke(ALICE, {
			_: 'sendMessageAlbum',
			chat_id: BOB_CHAT,
			input_message_contents: [photo('AgACAgIAAxkBAAIBbWZaaa'), photo('AgACAgIAAxkBAAIBbWZbbb')],
		})
		expect(album.total_count).toBe(2)
		const ids = album.messages.map((m) => m?.media_album_id)
		expect(ids[0]).not.toBe('0')
		expect(ids[1]).toBe(ids[0]!)
	})

	it('forwards messages, requiring strictly increasing ids', async () => {
		const fwd = await invoke(ALICE, {
			_: 'forwardMessages',
			chat_id: SEED_CHATS.basicGroup,
			from_chat_id: BOB_CHAT,
			message_ids: [1 * SHIFT, 2 * SHIFT, 999 * SHIFT],
		})
		expect(fwd.total_count).toBe(3)
		expect(fwd.messages[0]?.forward_info?.origin).toEqual({ _: 'messageOriginUser', sender_user_id: 1002 })
		expect(fwd.messages[2]).toBeNull()
		expect(
			await tdError(
				invoke(ALICE, {
					_: 'forwardMessages',
					chat_id: BOB_CHAT,
					from_chat_id: BOB_CHAT,
					message_ids: [2 * SHIFT, SHIFT],
				}),
			),
		).toBe('Message identifiers must be in a strictly increasing order')
		expect(
			await tdError(
				invoke(ALICE, { _: 'forwardMessages', chat_id: BOB_CHAT, from_chat_id: -5, message_ids: [SHIFT] }),
			),
		).toBe('Chat to forward messages from not found')
	})

	it('sends inputMessageForwarded: a forward, or a copy with its caption replaced', async () => {
		const photo = await invoke(ALICE, {
			_: 'sendMessage',
			chat_id: BOB_CHAT,
			input_message_content: {
				_: 'inputMessagePhoto',
				photo: { _: 'inputPhoto', photo: { _: 'inputFileRemote', id: 'https://example.com/p.jpg' } },
				caption: { _: 'formattedText', text: 'old caption' },
			},
		})
		const photoId = photo.id - 1 // the final id, one below the temporary one
		const forwarded = await invoke(ALICE, {
			_: 'sendMessage',
			chat_id: SEED_CHATS.basicGroup,
			input_message_content: { _: 'inputMessageForwarded', from_chat_id: BOB_CHAT, message_id: photoId },
		})
		expect(forwarded.forward_info?.origin).toEqual({ _: 'messageOriginUser', sender_user_id: 1001 })
		expect(forwarded.content).toMatchObject({ _: 'messagePhoto', caption: { text: 'old caption' } })
		const copied = await invoke(ALICE, {
			_: 'sendMessage',
			chat_id: SEED_CHATS.basicGroup,
			input_message_content: {
				_: 'inputMessageForwarded',
				from_chat_id: BOB_CHAT,
				message_id: photoId,
				copy_options: {
					_: 'messageCopyOptions',
					send_copy: true,
					replace_caption: true,
					new_caption: { _: 'formattedText', text: 'new caption' },
					new_show_caption_above_media: true,
				},
			},
		})
		expect(copied.forward_info).toBeUndefined()
		expect(copied.content).toMatchObject({
			_: 'messagePhoto',
			caption: { text: 'new caption' },
			show_caption_above_media: true,
		})
		// A text message has no caption to replace: the copy keeps its text.
		const text = await invoke(ALICE, {
			_: 'sendMessage',
			chat_id: SEED_CHATS.basicGroup,
			input_message_content: {
				_: 'inputMessageForwarded',
				from_chat_id: BOB_CHAT,
				message_id: SHIFT,
				copy_options: { _: 'messageCopyOptions', send_copy: true, replace_caption: true },
			},
		})
		expect(text.content).toMatchObject({ _: 'messageText', text: { text: 'Hi Alice' } })
		const missing = (copy: boolean, from_chat_id = BOB_CHAT) =>
			tdError(
				invoke(ALICE, {
					_: 'sendMessage',
					chat_id: SEED_CHATS.basicGroup,
					input_message_content: {
						_: 'inputMessageForwarded',
						from_chat_id,
						message_id: 999 * SHIFT,
						copy_options: copy ? { _: 'messageCopyOptions', send_copy: true } : undefined,
					},
				}),
			)
		expect(await missing(true)).toBe("The message can't be copied")
		expect(await missing(false)).toBe("The message can't be forwarded")
		expect(await missing(false, -5)).toBe('Chat to forward messages from not found')
	})

	it('edits its own text message', async () => {
		const sent = await invoke(ALICE, {
			_: 'sendMessage',
			chat_id: BOB_CHAT,
			input_message_content: text('draft'),
		})
		const id = sent.id - 1
		const edited = await invoke(ALICE, {
			_: 'editMessageText',
			chat_id: BOB_CHAT,
			message_id: id,
			input_message_content: text('final'),
		})
		expect(edited).toMatchObject({ id, content: { text: { text: 'final' } } })
		expect(edited.edit_date).toBeGreaterThan(0)
		const other = {
			_: 'editMessageText',
			chat_id: BOB_CHAT,
			message_id: SHIFT,
			input_message_content: text('x'),
		} as const
		expect(await tdError(invoke(ALICE, other))).toBe("Message can't be edited")
		expect(await tdError(invoke(ALICE, { ...other, message_id: 999 * SHIFT }))).toBe('Message not found')
		expect(await tdError(invoke(ALICE, { ...other, message_id: id, input_message_content: text('') }))).toBe(
			'Text must be non-empty',
		)
	})

	it('deletes messages', async () => {
		const sent = await invoke(ALICE, {
			_: 'sendMessage',
			chat_id: BOB_CHAT,
			input_message_content: text('oops'),
		})
		const id = sent.id - 1
		expect(
			await invoke(ALICE, { _: 'deleteMessages', chat_id: BOB_CHAT, message_ids: [id], revoke: true }),
		).toEqual({ _: 'ok' })
		expect(await tdError(invoke(ALICE, { _: 'getMessage', chat_id: BOB_CHAT, message_id: id }))).toBe(
			'Message not found',
		)
		expect(await invoke(ALICE, { _: 'deleteMessages', chat_id: BOB_CHAT, message_ids: [] })).toEqual({
			_: 'ok',
		})
		expect(await tdError(invoke(ALICE, { _: 'deleteMessages', chat_id: BOB_CHAT, message_ids: [-1] }))).toBe(
			'Invalid message identifier',
		)
	})

	it('pins and unpins messages', async () => {
		const pin = { _: 'pinChatMessage', chat_id: SEED_CHATS.basicGroup, message_id: SHIFT } as const
		expect(await invoke(ALICE, pin)).toEqual({ _: 'ok' })
		expect(
			(await invoke(ALICE, { _: 'getMessage', chat_id: SEED_CHATS.basicGroup, message_id: SHIFT })).is_pinned,
		).toBe(true)
		expect(await tdError(invoke(ALICE, { ...pin, only_for_self: true }))).toBe(
			"Messages can't be pinned only for self in the chat",
		)
		expect(
			await invoke(ALICE, { _: 'pinChatMessage', chat_id: BOB_CHAT, message_id: SHIFT, only_for_self: true }),
		).toEqual({
			_: 'ok',
		})
		expect(
			await invoke(ALICE, { _: 'unpinChatMessage', chat_id: SEED_CHATS.basicGroup, message_id: SHIFT }),
		).toEqual({ _: 'ok' })
		expect(await tdError(invoke(ALICE, { ...pin, chat_id: SEED_CHATS.channel }))).toBe(
			'Not enough rights to manage pinned messages in the chat',
		)
	})

	it('adds reactions', async () => {
		const r = (emoji: string) =>
			({
				_: 'addMessageReaction',
				chat_id: SEED_CHATS.supergroup,
				message_id: SHIFT,
				reaction_type: { _: 'reactionTypeEmoji', emoji },
				update_recent_reactions: true,
			}) as const
		expect(await invoke(ALICE, r('👍'))).toEqual({ _: 'ok' })
		const m = await invoke(ALICE, { _: 'getMessage', chat_id: SEED_CHATS.supergroup, message_id: SHIFT })
		expect(m.interaction_info?.reactions?.reactions[0]).toMatchObject({ total_count: 1, is_chosen: true })
		expect(await tdError(invoke(ALICE, r('🦄')))).toBe("The reaction isn't available for the message")
		expect(await tdError(invoke(ALICE, { ...r('👍'), message_id: 999 * SHIFT }))).toBe('Message not found')
	})

	it('reads and sets the default auto-delete time', async () => {
		expect(await invoke(ALICE, { _: 'getDefaultMessageAutoDeleteTime' })).toEqual({
			_: 'messageAutoDeleteTime',
			time: 0,
		})
		const set = (time: number) =>
			invoke(ALICE, {
				_: 'setDefaultMessageAutoDeleteTime',
				message_auto_delete_time: { _: 'messageAutoDeleteTime', time },
			})
		expect(await set(7 * 86_400)).toEqual({ _: 'ok' })
		expect(await invoke(ALICE, { _: 'getDefaultMessageAutoDeleteTime' })).toEqual({
			_: 'messageAutoDeleteTime',
			time: 7 * 86_400,
		})
		expect(await tdError(set(3600))).toBe('TTL_PERIOD_INVALID')
		expect(await tdError(set(366 * 86_400))).toBe('TTL_PERIOD_INVALID')
		expect(await tdError(invoke(ALICE, { _: 'setDefaultMessageAutoDeleteTime' }))).toBe(
			'New default message auto-delete time must be non-empty',
		)
	})

	it('sets a chat auto-delete time', async () => {
		const set = (chat_id: number, t: number) =>
			invoke(ALICE, { _: 'setChatMessageAutoDeleteTime', chat_id, message_auto_delete_time: t })
		expect(await set(BOB_CHAT, 86_400)).toEqual({ _: 'ok' })
		expect((await invoke(ALICE, { _: 'getChat', chat_id: BOB_CHAT })).message_auto_delete_time).toBe(86_400)
		expect(await tdError(set(BOB_CHAT, -1))).toBe("Message auto-delete time can't be negative")
		expect(await tdError(set(TEL_CHAT, 86_400))).toBe("Message auto-delete time in the chat can't be changed")
		// A channel subscriber may not write there; a group member writes but may not change the time.
		expect(await tdError(set(SEED_CHATS.channel, 86_400))).toBe('Have no write access to the chat')
		const BOB = 2
		await login(t.rt, BOB, '9996621234')
		expect(
			await tdError(
				t.rt.invoke(BOB, {
					_: 'setChatMessageAutoDeleteTime',
					chat_id: SEED_CHATS.forum,
					message_auto_delete_time: 86_400,
				}),
			),
		).toBe('Not enough rights to change message auto-delete time in the chat')
		expect(await tdError(set(99_999, -1))).toBe("Message auto-delete time can't be negative")
	})

	it('answers options and the network type', async () => {
		expect(await invoke(ALICE, { _: 'getOption', name: 'version' })).toEqual({
			_: 'optionValueString',
			value: '1.8.65',
		})
		await invoke(ALICE, { _: 'setOption', name: 'x_flag', value: { _: 'optionValueBoolean', value: true } })
		expect(await invoke(ALICE, { _: 'getOption', name: 'x_flag' })).toEqual({
			_: 'optionValueBoolean',
			value: true,
		})
		expect(await invoke(ALICE, { _: 'getOption', name: 'unknown' })).toEqual({ _: 'optionValueEmpty' })
		expect(await invoke(ALICE, { _: 'setNetworkType', type: { _: 'networkTypeNone' } })).toEqual({ _: 'ok' })
	})
})
