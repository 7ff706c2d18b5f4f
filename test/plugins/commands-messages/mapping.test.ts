import { describe, expect, it } from 'bun:test'
import * as v from 'valibot'
import { messagesCommands } from '../../../plugins/commands-messages'
import type { CommandContext } from '../../../src/commands/define'
import type { TdInvoke } from '../../../src/telegram/types'

/**
 * The exact TDLib requests each command builds (tdlib-mapping §1), against a stub that records
 * them: the parts the emulator cannot show (update_recent_reactions, copy options, topics).
 */
function stub(answer: (req: { _: string }) => unknown = () => ({ _: 'ok' })) {
	const requests: Array<Record<string, unknown>> = []
	const invoke = (async (req: { _: string }) => {
		requests.push(req as Record<string, unknown>)
		return answer(req)
	}) as unknown as TdInvoke
	const ctx: CommandContext = {
		userbotId: 1,
		principal: { userId: 1, email: 'a@b.c', companyId: 1, isOwner: true, via: 'bearer' },
		invoke,
		signal: new AbortController().signal,
		uploadedFilePath: async (ref) =>
			ref === 'upload:ok.txt' || ref === 'ok.txt' ? '/data/tdlib/1/uploads/ok.txt' : null,
	}
	return { ctx, requests }
}

async function runCommand(
	name: string,
	frame: Record<string, unknown>,
	answer?: (req: { _: string }) => unknown,
) {
	const command = messagesCommands.commands.find((c) => c.name === name)!
	const { ctx, requests } = stub(answer)
	const input = v.parse(command.input, frame)
	const result = await command.run(input, ctx)
	return { result, requests }
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
		const { requests } = await runCommand('send_message', {
			chat_id: -100,
			text: 'hi',
			entities: [{ '@type': 'textEntity', offset: 0, length: 2, type: { '@type': 'textEntityTypeBold' } }],
			message_thread_id: 2 ** 20,
			reply_to: { '@type': 'inputMessageReplyToMessage', message_id: 9 },
			options: { disable_notification: true },
		})
		expect(requests[0]).toEqual({
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
		const album = await runCommand('send_message', {
			chat_id: 1,
			media_type: 'photo',
			message_thread_id: 7,
			reply_to_message_id: 9,
			options: { disable_notification: true },
			media: [{ file: 'https://e.com/1.jpg' }, { file: 'https://e.com/2.mp4', media_type: 'video' }],
		})
		expect(album.requests).toHaveLength(1)
		expect(album.requests[0]).toMatchObject({
			_: 'sendMessageAlbum',
			chat_id: 1,
			topic_id: { _: 'messageTopicThread', message_thread_id: 7 },
			reply_to: { _: 'inputMessageReplyToMessage', message_id: 9 },
			options: { _: 'messageSendOptions', disable_notification: true },
		})
		const contents = album.requests[0]!.input_message_contents as Array<{ _: string }>
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
