import { describe, expect, it } from 'bun:test'
import * as v from 'valibot'
import { messagesCommands } from '../../../plugins/commands-messages'
import { RuntimeError, TdError } from '../../../src/runtime/telegram/types'
import { CommandError } from '../../../src/server/commands/define'
import { type Answer, stubContext } from '../../helpers-stub'

/**
 * The exact TDLib requests each command builds (docs/tdlib-mapping.md#messages), against a stub that records
 * them: the parts the emulator cannot show (update_recent_reactions, copy options, topics).
 */
/** Uploads: `ok.txt` is a file the userbot uploaded; any other name is not. */
const stub = (answer?: Answer, signal?: AbortSignal) =>
	stubContext(answer, {
		signal,
		uploadedFilePath: async (ref) =>
			ref === 'upload:ok.txt' || ref === 'ok.txt' ? '/data/tdlib/1/uploads/ok.txt' : null,
	})

async function runCommand(
	name: string,
	frame: Record<string, unknown>,
	answer?: Answer,
	signal?: AbortSignal,
) {
	const command = messagesCommands.commands.find((c) => c.name === name)!
	const { ctx, requests } = stub(answer, signal)
	const input = v.parse(command.input, frame)
	const result = await command.run(input, ctx)
	return { result, requests }
}

/** A stub TDLib whose chats are supergroup 77, a forum or not, and whose other answers are `ok`. */
const supergroupChat =
	(isForum: boolean): Answer =>
	(req) => {
		if (req._ === 'getChat')
			return { _: 'chat', id: req.chat_id, type: { _: 'chatTypeSupergroup', supergroup_id: 77 } }
		if (req._ === 'getSupergroup') return { _: 'supergroup', id: req.supergroup_id, is_forum: isForum }
		return { _: 'ok' }
	}

describe('messages mapping onto TDLib 1.8.65', () => {
	it('set_reaction: one addMessageReaction per valid item, add_to_recent as update_recent_reactions', async () => {
		const { requests } = await runCommand('set_reaction', {
			chat_id: 5,
			message_id: 7,
			is_big: true,
			reaction: [
				{ '@type': 'reactionTypeEmoji', emoji: '👍' },
				{ '@type': 'reactionTypeCustomEmoji', custom_emoji_id: 5368324170671202286n.toString() },
				{ '@type': 'reactionTypePaid' },
			],
		})
		expect(requests).toEqual([
			{
				_: 'addMessageReaction',
				chat_id: 5,
				message_id: 7,
				reaction_type: { _: 'reactionTypeEmoji', emoji: '👍' },
				is_big: true,
				update_recent_reactions: true,
			},
			{
				_: 'addMessageReaction',
				chat_id: 5,
				message_id: 7,
				reaction_type: { _: 'reactionTypeCustomEmoji', custom_emoji_id: '5368324170671202286' },
				is_big: true,
				update_recent_reactions: true,
			},
		])
		const off = await runCommand('set_reaction', {
			chat_id: 5,
			message_id: 7,
			add_to_recent: false,
			reaction: { _: 'reactionTypeEmoji', emoji: '🔥' },
		})
		expect(off.requests[0]).toMatchObject({ update_recent_reactions: false, is_big: false })
	})

	it('forward_message: sorted unique ids, one call per target; new_caption copies per message', async () => {
		const plain = await runCommand(
			'forward_message',
			{ to_chat_ids: [1, 2], from_chat_id: 3, message_ids: [30, 10, 20, 10], send_copy: true },
			() => ({ _: 'messages', total_count: 0, messages: [] }),
		)
		expect(plain.requests).toEqual(
			[1, 2].map((chat_id) => ({
				_: 'forwardMessages',
				chat_id,
				from_chat_id: 3,
				message_ids: [10, 20, 30],
				send_copy: true,
				remove_caption: false,
			})),
		)
		expect(plain.result).toEqual([
			{ to_chat_id: 1, messages: [] },
			{ to_chat_id: 2, messages: [] },
		])
		const copied = await runCommand(
			'forward_message',
			{ to_chat_ids: [1], from_chat_id: 3, message_ids: [20, 10], new_caption: 'fresh' },
			() => ({ _: 'message' }),
		)
		expect(
			copied.requests.map((r) => (r.input_message_content as { message_id: number }).message_id),
		).toEqual([10, 20])
		expect(copied.requests[0]).toEqual({
			_: 'sendMessage',
			chat_id: 1,
			input_message_content: {
				_: 'inputMessageForwarded',
				from_chat_id: 3,
				message_id: 10,
				copy_options: {
					_: 'messageCopyOptions',
					send_copy: true,
					replace_caption: true,
					new_caption: { _: 'formattedText', text: 'fresh', entities: [] },
					new_show_caption_above_media: false,
				},
			},
		})
	})

	it('send_message: topic, reply target, options and entities in 1.8.65 shapes', async () => {
		const { requests } = await runCommand(
			'send_message',
			{
				chat_id: -100,
				text: 'hi',
				entities: [{ '@type': 'textEntity', offset: 0, length: 2, type: { '@type': 'textEntityTypeBold' } }],
				message_thread_id: 2 ** 20,
				reply_to: { '@type': 'inputMessageReplyToMessage', message_id: 9 },
				options: { disable_notification: true },
			},
			supergroupChat(false),
		)
		expect(requests.map((r) => r._)).toEqual(['getChat', 'getSupergroup', 'sendMessage'])
		expect(requests[2]).toEqual({
			_: 'sendMessage',
			chat_id: -100,
			topic_id: { _: 'messageTopicThread', message_thread_id: 2 ** 20 },
			reply_to: { _: 'inputMessageReplyToMessage', message_id: 9 },
			options: { _: 'messageSendOptions', disable_notification: true },
			reply_markup: undefined,
			input_message_content: {
				_: 'inputMessageText',
				text: {
					_: 'formattedText',
					text: 'hi',
					entities: [{ _: 'textEntity', offset: 0, length: 2, type: { _: 'textEntityTypeBold' } }],
				},
			},
		})
	})

	it('send_message: media files become inputFileRemote, inputFileId or an uploaded inputFileLocal', async () => {
		const files = async (file: unknown) => {
			const { requests } = await runCommand('send_message', { chat_id: 1, media: { file } })
			const content = requests[0]!.input_message_content as { document: { document: unknown } }
			return content.document.document
		}
		expect(await files('https://e.com/a.pdf')).toEqual({ _: 'inputFileRemote', id: 'https://e.com/a.pdf' })
		expect(await files('AgACAgIAAxkBAAIC')).toEqual({ _: 'inputFileRemote', id: 'AgACAgIAAxkBAAIC' })
		expect(await files(42)).toEqual({ _: 'inputFileId', id: 42 })
		expect(await files('42')).toEqual({ _: 'inputFileId', id: 42 })
		expect(await files({ '@type': 'inputFileId', id: 42 })).toEqual({ _: 'inputFileId', id: 42 })
		expect(await files('upload:ok.txt')).toEqual({
			_: 'inputFileLocal',
			path: '/data/tdlib/1/uploads/ok.txt',
		})
	})

	it('send_message: media in the 1.8.65 wrappers (inputPhoto, inputVideo, inputDocument, inputAudio, inputAnimation)', async () => {
		const F = { _: 'inputFileRemote', id: 'https://e.com/f' }
		const caption = { _: 'formattedText', text: 'c', entities: [] }
		const content = async (media_type: string, extra: Record<string, unknown> = {}) => {
			const { requests } = await runCommand('send_message', {
				chat_id: 1,
				media_type,
				media: { file: F.id, caption: 'c', ...extra },
			})
			return requests[0]!.input_message_content
		}
		expect(await content('photo', { width: 10, height: 20, has_spoiler: true })).toEqual({
			_: 'inputMessagePhoto',
			photo: { _: 'inputPhoto', photo: F, width: 10, height: 20 },
			caption,
			show_caption_above_media: false,
			has_spoiler: true,
		})
		expect(await content('video', { duration: 3, supports_streaming: true })).toEqual({
			_: 'inputMessageVideo',
			video: { _: 'inputVideo', video: F, duration: 3, width: 0, height: 0, supports_streaming: true },
			caption,
			show_caption_above_media: false,
			has_spoiler: false,
		})
		expect(await content('document')).toEqual({
			_: 'inputMessageDocument',
			document: { _: 'inputDocument', document: F, disable_content_type_detection: false },
			caption,
		})
		expect(await content('audio', { title: 't', performer: 'p', duration: 9 })).toEqual({
			_: 'inputMessageAudio',
			audio: { _: 'inputAudio', audio: F, duration: 9, title: 't', performer: 'p' },
			caption,
		})
		expect(await content('animation')).toEqual({
			_: 'inputMessageAnimation',
			animation: { _: 'inputAnimation', animation: F, duration: 0, width: 0, height: 0 },
			caption,
			show_caption_above_media: false,
			has_spoiler: false,
		})
		expect(await content('voice_note', { duration: 2 })).toEqual({
			_: 'inputMessageVoiceNote',
			voice_note: F,
			duration: 2,
			waveform: '',
			caption,
		})
	})

	it('send_message: 2 to 10 items as one sendMessageAlbum with the envelope; reply_markup on single media', async () => {
		const album = await runCommand(
			'send_message',
			{
				chat_id: 1,
				media_type: 'photo',
				message_thread_id: 7 * 2 ** 20,
				reply_to_message_id: 9,
				options: { disable_notification: true },
				media: [{ file: 'https://e.com/1.jpg' }, { file: 'https://e.com/2.mp4', media_type: 'video' }],
			},
			supergroupChat(true),
		)
		expect(album.requests.map((r) => r._)).toEqual(['getChat', 'getSupergroup', 'sendMessageAlbum'])
		expect(album.requests[2]).toMatchObject({
			_: 'sendMessageAlbum',
			chat_id: 1,
			topic_id: { _: 'messageTopicForum', forum_topic_id: 7 },
			reply_to: { _: 'inputMessageReplyToMessage', message_id: 9 },
			options: { _: 'messageSendOptions', disable_notification: true },
		})
		const contents = album.requests[2]!.input_message_contents as Array<{ _: string }>
		expect(contents.map((c) => c._)).toEqual(['inputMessagePhoto', 'inputMessageVideo'])
		const markup = { '@type': 'replyMarkupRemoveKeyboard', is_personal: false }
		const single = await runCommand('send_message', {
			chat_id: 1,
			media: { file: 'https://e.com/1.jpg' },
			reply_markup: markup,
		})
		expect(single.requests[0]).toMatchObject({
			_: 'sendMessage',
			reply_markup: { _: 'replyMarkupRemoveKeyboard', is_personal: false },
		})
		// A ready-made content in an album is held to the album kinds too.
		const sticker = {
			'@type': 'inputMessageSticker',
			sticker: { '@type': 'inputFileRemote', id: 'https://e.com/s' },
		}
		await expect(
			runCommand('send_message', { chat_id: 1, media: [sticker, { file: 'https://e.com/1.jpg' }] }),
		).rejects.toThrow('an album may contain only photo, video, document and audio')
	})

	it('set_default_message_auto_delete_time wraps the integer in messageAutoDeleteTime', async () => {
		const { requests, result } = await runCommand('set_default_message_auto_delete_time', {
			message_auto_delete_time: 86_400,
		})
		expect(requests).toEqual([
			{
				_: 'setDefaultMessageAutoDeleteTime',
				message_auto_delete_time: { _: 'messageAutoDeleteTime', time: 86_400 },
			},
		])
		expect(result).toBe(86_400)
	})
})

/** Runs a command expecting it to fail; the error it threw. */
async function failure(
	name: string,
	frame: Record<string, unknown>,
	answer?: Answer,
	signal?: AbortSignal,
): Promise<{ error: unknown; requests: Array<Record<string, unknown>> }> {
	const command = messagesCommands.commands.find((c) => c.name === name)!
	const { ctx, requests } = stub(answer, signal)
	try {
		await command.run(v.parse(command.input, frame), ctx)
	} catch (error) {
		return { error, requests }
	}
	throw new Error(`${name} did not fail`)
}

/** The first issue's message, as the gateway sends it. */
function inputError(name: string, frame: Record<string, unknown>): string | undefined {
	const command = messagesCommands.commands.find((c) => c.name === name)!
	return v.safeParse(command.input, frame).issues?.[0].message
}

const range = (n: number, from = 1) => Array.from({ length: n }, (_, i) => from + i)
const messagesOf = (req: Record<string, unknown>) => ({
	_: 'messages',
	total_count: 1,
	messages: (req.message_ids as number[]).map((id) => ({ _: 'message', id, chat_id: req.chat_id })),
})

describe('one frame, a bounded number of TDLib requests', () => {
	it('caps message_ids, to_chat_ids and reaction items with their own strings', () => {
		const forward = { to_chat_ids: [1], from_chat_id: 3, message_ids: [1] }
		expect(inputError('forward_message', { ...forward, message_ids: range(101) })).toBe(
			'message_ids must contain at most 100 message ids',
		)
		expect(inputError('forward_message', { ...forward, message_ids: range(100_000) })).toBe(
			'message_ids must contain at most 100 message ids',
		)
		expect(inputError('forward_message', { ...forward, to_chat_ids: range(101) })).toBe(
			'to_chat_ids must contain at most 100 chat ids',
		)
		expect(
			inputError('forward_message', { ...forward, to_chat_ids: range(100), message_ids: range(100) }),
		).toBe(undefined)
		// With new_caption each message is its own copy request: targets × messages is capped too.
		const captioned = { ...forward, new_caption: 'new' }
		expect(
			inputError('forward_message', { ...captioned, to_chat_ids: range(100), message_ids: range(100) }),
		).toBe('with new_caption, to_chat_ids × message_ids must be at most 100')
		expect(
			inputError('forward_message', { ...captioned, to_chat_ids: range(10), message_ids: range(11) }),
		).toBe('with new_caption, to_chat_ids × message_ids must be at most 100')
		expect(
			inputError('forward_message', { ...captioned, to_chat_ids: range(10), message_ids: range(10) }),
		).toBe(undefined)
		// Repeated ids are one copy each: 10 targets × 10 distinct ids passes however often they repeat.
		expect(
			inputError('forward_message', {
				...captioned,
				to_chat_ids: range(10),
				message_ids: [...range(10), ...range(10)],
			}),
		).toBe(undefined)
		expect(inputError('delete_messages', { chat_id: 1, message_ids: range(101) })).toBe(
			'message_ids must contain at most 100 message ids',
		)
		expect(inputError('delete_messages', { chat_id: 1, message_ids: range(100) })).toBe(undefined)
		// A too long list of non-integers is refused for its length, without looking at every item.
		expect(inputError('delete_messages', { chat_id: 1, message_ids: Array(101).fill('x') })).toBe(
			'message_ids must contain at most 100 message ids',
		)
		const item = { '@type': 'reactionTypeEmoji', emoji: '👍' }
		const reaction = { chat_id: 1, message_id: 2 }
		expect(inputError('set_reaction', { ...reaction, reaction: Array(11).fill(item) })).toBe(
			'reaction must contain at most 10 reaction items',
		)
		expect(inputError('set_reaction', { ...reaction, reaction: Array(10).fill(item) })).toBe(undefined)
	})

	it('forward_message forwards to one target at a time, in order', async () => {
		let inFlight = 0
		let most = 0
		const { requests, result } = await runCommand(
			'forward_message',
			{ to_chat_ids: [5, 3, 9, 1], from_chat_id: 2, message_ids: [10] },
			async (req) => {
				most = Math.max(most, ++inFlight)
				await Bun.sleep(2)
				inFlight--
				return messagesOf(req)
			},
		)
		expect(most).toBe(1)
		expect(requests.map((r) => r.chat_id)).toEqual([5, 3, 9, 1])
		expect((result as Array<{ to_chat_id: number }>).map((r) => r.to_chat_id)).toEqual([5, 3, 9, 1])
		// With new_caption: one copy per message per target, still one request at a time.
		most = 0
		const copies = await runCommand(
			'forward_message',
			{ to_chat_ids: [5, 3], from_chat_id: 2, message_ids: [20, 10], new_caption: 'c' },
			async (req) => {
				most = Math.max(most, ++inFlight)
				await Bun.sleep(1)
				inFlight--
				return { _: 'message', chat_id: req.chat_id }
			},
		)
		expect(most).toBe(1)
		expect(
			copies.requests.map((r) => [r.chat_id, (r.input_message_content as { message_id: number }).message_id]),
		).toEqual([
			[5, 10],
			[5, 20],
			[3, 10],
			[3, 20],
		])
	})

	it('forward_message stops once ctx.signal aborts (deadline passed or socket closed)', async () => {
		const controller = new AbortController()
		const { error, requests } = await failure(
			'forward_message',
			{ to_chat_ids: [1, 2, 3], from_chat_id: 9, message_ids: [10] },
			(req) => {
				controller.abort(new RuntimeError('timeout', 'command deadline passed'))
				return messagesOf(req)
			},
			controller.signal,
		)
		expect(requests.map((r) => r.chat_id)).toEqual([1])
		expect(error).toBeInstanceOf(CommandError)
		expect((error as CommandError).message).toBe('timeout')
		expect((error as CommandError).result).toEqual([
			{ to_chat_id: 1, messages: [{ _: 'message', id: 10, chat_id: 1 }] },
			{ to_chat_id: 2, error: 'timeout' },
			{ to_chat_id: 3, error: 'timeout' },
		])
		// Between the copies of one target too.
		const copying = new AbortController()
		const copied = await failure(
			'forward_message',
			{ to_chat_ids: [1, 2], from_chat_id: 9, message_ids: [10, 20, 30], new_caption: 'c' },
			() => {
				copying.abort(new RuntimeError('timeout', 'command deadline passed'))
				return { _: 'message', id: 1 }
			},
			copying.signal,
		)
		expect(copied.requests).toHaveLength(1)
		expect((copied.error as CommandError).result).toEqual([
			{ to_chat_id: 1, messages: [{ _: 'message', id: 1 }], error: 'timeout' },
			{ to_chat_id: 2, error: 'timeout' },
		])
	})
})

describe('forward_message keeps what went through', () => {
	const frame = { to_chat_ids: [1, 2, 3], from_chat_id: 9, message_ids: [10] }
	const failingAt =
		(chatId: number, err: Error): Answer =>
		(req) => {
			if (req.chat_id === chatId) throw err
			return messagesOf(req)
		}

	it('words a runtime failure as the gateway does and carries every target', async () => {
		const cases: Array<[Error, string]> = [
			[new RuntimeError('timeout', 'command deadline passed'), 'timeout'],
			[new RuntimeError('runtime_down', 'supervisor exited'), 'userbot runtime restarted, try again'],
			[new TdError(400, 'Chat not found'), 'Chat not found'],
			[new TdError(406, 'secret'), 'request failed'],
		]
		for (const [err, worded] of cases) {
			const { error } = await failure('forward_message', frame, failingAt(2, err))
			expect(error).toBeInstanceOf(CommandError)
			expect((error as CommandError).message).toBe(worded)
			expect((error as CommandError).result).toEqual([
				{ to_chat_id: 1, messages: [{ _: 'message', id: 10, chat_id: 1 }] },
				{ to_chat_id: 2, error: worded },
				{ to_chat_id: 3, messages: [{ _: 'message', id: 10, chat_id: 3 }] },
			])
		}
	})

	it('lets the gateway word a failure when nothing went through', async () => {
		const down = new RuntimeError('runtime_down', 'supervisor exited')
		const { error, requests } = await failure('forward_message', frame, () => {
			throw down
		})
		expect(error).toBe(down)
		expect(requests).toHaveLength(3)
	})

	it('new_caption: copies made before a failure stay in the result', async () => {
		const { error } = await failure(
			'forward_message',
			{ to_chat_ids: [1, 2], from_chat_id: 9, message_ids: [10, 20, 30], new_caption: 'c' },
			(req) => {
				const id = (req.input_message_content as { message_id: number }).message_id
				if (req.chat_id === 1 && id === 20) throw new RuntimeError('timeout', 'late')
				if (req.chat_id === 2) throw new TdError(400, 'Have no write access to the chat')
				return { _: 'message', id, chat_id: req.chat_id }
			},
		)
		expect((error as CommandError).message).toBe('timeout')
		expect((error as CommandError).result).toEqual([
			{ to_chat_id: 1, messages: [{ _: 'message', id: 10, chat_id: 1 }], error: 'timeout' },
			{ to_chat_id: 2, error: 'Have no write access to the chat' },
		])
	})
})

describe('send_message topics', () => {
	const thread = (message_thread_id: number, answer: Answer) =>
		runCommand('send_message', { chat_id: -100, text: 'hi', message_thread_id }, answer)

	it('sends to a forum topic in a forum, to a thread elsewhere', async () => {
		// 3000 << 20 is past 2^31: no 32-bit shift.
		const forum = await thread(3000 * 2 ** 20, supergroupChat(true))
		expect(forum.requests.slice(0, 2)).toEqual([
			{ _: 'getChat', chat_id: -100 },
			{ _: 'getSupergroup', supergroup_id: 77 },
		])
		expect(forum.requests[2]).toMatchObject({
			_: 'sendMessage',
			topic_id: { _: 'messageTopicForum', forum_topic_id: 3000 },
		})
		const group = await thread(5 * 2 ** 20, supergroupChat(false))
		expect(group.requests[2]).toMatchObject({
			topic_id: { _: 'messageTopicThread', message_thread_id: 5 * 2 ** 20 },
		})
		// Not a supergroup: no getSupergroup; TDLib answers "Chat doesn't have threads".
		const basic = await thread(2 ** 20, (req) =>
			req._ === 'getChat' ? { _: 'chat', type: { _: 'chatTypeBasicGroup', basic_group_id: 4 } } : { _: 'ok' },
		)
		expect(basic.requests.map((r) => r._)).toEqual(['getChat', 'sendMessage'])
		expect(basic.requests[1]).toMatchObject({
			topic_id: { _: 'messageTopicThread', message_thread_id: 2 ** 20 },
		})
	})

	it('passes a raw topic_id on, without look-ups; refuses other kinds', async () => {
		const raw = await runCommand('send_message', {
			chat_id: -100,
			text: 'hi',
			message_thread_id: 2 ** 20,
			topic_id: { '@type': 'messageTopicForum', forum_topic_id: '7' },
		})
		expect(raw.requests).toEqual([expect.objectContaining({ _: 'sendMessage' })])
		expect(raw.requests[0]!.topic_id).toEqual({ _: 'messageTopicForum', forum_topic_id: 7 })
		const passed: Array<[Record<string, unknown>, Record<string, unknown>]> = [
			[
				{ _: 'messageTopicThread', message_thread_id: 2 ** 20 },
				{ _: 'messageTopicThread', message_thread_id: 2 ** 20 },
			],
			[
				{ '@type': 'messageTopicDirectMessages', direct_messages_chat_topic_id: 4 },
				{ _: 'messageTopicDirectMessages', direct_messages_chat_topic_id: 4 },
			],
		]
		for (const [topic_id, sent] of passed) {
			const { requests } = await runCommand('send_message', { chat_id: -100, text: 'hi', topic_id })
			expect(requests[0]!.topic_id).toEqual(sent)
		}
		// A kind TDLib refuses for sending, a key no topic has, a number for a type, a bare string.
		for (const topic_id of [
			{ '@type': 'messageTopicSavedMessages', saved_messages_topic_id: 1 },
			{ '@type': 'messageTopicForum', forum_topic_id: 7, extra: 1 },
			{ '@type': 'messageTopicForum', forum_topic_id: 'seven' },
			'messageTopicForum',
			{ forum_topic_id: 1 },
		]) {
			expect(inputError('send_message', { chat_id: -100, text: 'hi', topic_id })).toBe(
				'topic_id must be a messageTopicThread, messageTopicForum or messageTopicDirectMessages',
			)
		}
	})
})
