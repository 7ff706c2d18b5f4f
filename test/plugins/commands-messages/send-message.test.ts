import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { SEED_CHATS } from '../../../src/emulator'
import { uploadsDir } from '../../../src/server/commands/uploads'
import { createMessagingFixture, type MessagingFixture, type WsClient } from '../../helpers-ws'

let f: MessagingFixture
let c: WsClient
const ALICE = 1001 // Bob's private chat with Alice in the emulator's seed
const REFUSED = 'media must be a URL, a remote file id or an uploaded file'

beforeAll(async () => {
	f = await createMessagingFixture()
	c = await f.connect()
	const dir = uploadsDir(f.t.config.dataDir, f.userbotId)
	mkdirSync(dir, { recursive: true })
	writeFileSync(join(dir, 'report.pdf'), 'pdf bytes')
	writeFileSync(join(dir, 'cat.jpg'), 'jpeg bytes')
})
afterAll(() => f.stop())

type Msg = { _: string; chat_id: number; content: Record<string, unknown> & { _: string } }
const send = (fields: Record<string, unknown>) =>
	c.command({ action: 'send_message', userbot_id: f.userbotId, ...fields })

describe('send_message', () => {
	it('sends a text message and returns the message', async () => {
		const reply = await send({ chat_id: ALICE, text: 'hello from the gateway' })
		expect(reply.payload.type).toBe('send_message')
		const msg = reply.payload.result as Msg
		expect(msg._).toBe('message')
		expect(msg.chat_id).toBe(ALICE)
		expect(msg.content).toMatchObject({ _: 'messageText', text: { text: 'hello from the gateway' } })
	})

	it('accepts chat_id as a digit string and a reply target', async () => {
		const reply = await send({ chat_id: String(ALICE), text: 'a reply', reply_to_message_id: 2 ** 20 })
		expect((reply.payload.result as Msg).content).toMatchObject({ text: { text: 'a reply' } })
	})

	it('answers chat_id is required', async () => {
		expect((await send({ text: 'x' })).payload).toMatchObject({
			type: 'send_message_error',
			error: 'chat_id is required',
		})
		expect((await send({ chat_id: null, text: 'x' })).payload.error).toBe('chat_id is required')
	})

	it('answers chat_id must be an integer', async () => {
		expect((await send({ chat_id: 'general', text: 'x' })).payload.error).toBe('chat_id must be an integer')
	})

	it('answers media must be an object', async () => {
		for (const media of ['https://example.com/a.jpg', 5, [], ['x'], [{ file: 'https://e.com/a' }, 3]]) {
			expect((await send({ chat_id: ALICE, media })).payload.error).toBe('media must be an object')
		}
		// null is a field not sent, in every command: a text message.
		const text = await send({ chat_id: ALICE, media: null, text: 'no media after all' })
		expect((text.payload.result as Msg).content).toMatchObject({ text: { text: 'no media after all' } })
	})

	it('sends a message_thread_id to a forum topic in a forum and to a thread in a plain supergroup', async () => {
		const thread = 2 ** 20 // the first message of each chat
		const forum = await send({ chat_id: SEED_CHATS.forum, text: 'in a topic', message_thread_id: thread })
		expect(forum.payload.type).toBe('send_message')
		expect(forum.payload.result).toMatchObject({
			chat_id: SEED_CHATS.forum,
			topic_id: { _: 'messageTopicForum', forum_topic_id: 1 },
		})
		const group = await send({
			chat_id: SEED_CHATS.supergroup,
			text: 'in a thread',
			message_thread_id: thread,
		})
		expect(group.payload.result).toMatchObject({
			chat_id: SEED_CHATS.supergroup,
			topic_id: { _: 'messageTopicThread', message_thread_id: thread },
		})
		const album = await send({
			chat_id: SEED_CHATS.forum,
			message_thread_id: thread,
			media_type: 'photo',
			media: [{ file: 'https://example.com/1.jpg' }, { file: 'https://example.com/2.jpg' }],
		})
		const messages = (album.payload.result as { messages: Array<{ topic_id: unknown }> }).messages
		expect(messages.map((m) => m.topic_id)).toEqual([
			{ _: 'messageTopicForum', forum_topic_id: 1 },
			{ _: 'messageTopicForum', forum_topic_id: 1 },
		])
	})

	it('passes a raw topic_id to TDLib, which checks it against the chat', async () => {
		const forumTopic = { '@type': 'messageTopicForum', forum_topic_id: 1 }
		const sent = await send({ chat_id: SEED_CHATS.forum, text: 'raw', topic_id: forumTopic })
		expect(sent.payload.result).toMatchObject({ topic_id: { _: 'messageTopicForum', forum_topic_id: 1 } })
		expect(
			(await send({ chat_id: SEED_CHATS.supergroup, text: 'x', topic_id: forumTopic })).payload.error,
		).toBe('Chat is not a forum')
		const thread = { _: 'messageTopicThread', message_thread_id: 2 ** 20 }
		expect((await send({ chat_id: ALICE, text: 'x', topic_id: thread })).payload.error).toBe(
			"Chat doesn't have threads",
		)
		expect((await send({ chat_id: ALICE, text: 'x', topic_id: 'messageTopicForum' })).payload).toMatchObject({
			type: 'send_message_error',
			error: 'topic_id must be a messageTopicThread, messageTopicForum or messageTopicDirectMessages',
		})
	})

	it('passes TDLib errors through', async () => {
		expect((await send({ chat_id: 424242, text: 'x' })).payload.error).toBe('Chat not found')
		expect((await send({ chat_id: ALICE, text: '' })).payload.error).toBe('Text must be non-empty')
		expect((await send({ chat_id: ALICE, text: 'x', message_thread_id: 5 })).payload.error).toBe(
			"Chat doesn't have threads",
		)
	})

	it('sends a photo by URL with a caption', async () => {
		const reply = await send({
			chat_id: ALICE,
			media: { file: 'https://example.com/cat.jpg', caption: 'a cat' },
			media_type: 'photo',
		})
		const msg = reply.payload.result as Msg
		expect(msg.content._).toBe('messagePhoto')
		expect(msg.content.caption).toMatchObject({ text: 'a cat' })
	})

	it('sends a document by default, by remote file id, with the text as caption', async () => {
		const reply = await send({
			chat_id: ALICE,
			text: 'see attached',
			media: { file: 'BQACAgIAAxkBAAIBZ2Xyz_abc-1234' },
		})
		const msg = reply.payload.result as Msg
		expect(msg.content._).toBe('messageDocument')
		expect(msg.content.caption).toMatchObject({ text: 'see attached' })
	})

	it('sends an uploaded file, as {upload} or upload:<name>', async () => {
		const a = await send({ chat_id: ALICE, media: { upload: 'report.pdf' } })
		expect((a.payload.result as Msg).content._).toBe('messageDocument')
		const b = await send({ chat_id: ALICE, media: { file: 'upload:cat.jpg', media_type: 'photo' } })
		expect((b.payload.result as Msg).content._).toBe('messagePhoto')
	})

	it('refuses uploads that do not exist or climb out of the uploads folder', async () => {
		expect((await send({ chat_id: ALICE, media: { upload: 'nope.pdf' } })).payload.error).toBe(
			'uploaded file not found',
		)
		expect((await send({ chat_id: ALICE, media: { upload: '../../../etc/passwd' } })).payload.error).toBe(
			'uploaded file not found',
		)
		expect((await send({ chat_id: ALICE, media: { file: 'upload:/etc/passwd' } })).payload.error).toBe(
			'uploaded file not found',
		)
	})

	it('refuses a path on the server disk, however it is written', async () => {
		const attempts: unknown[] = [
			{ file: '/etc/passwd' },
			{ file: 'file:///etc/passwd' },
			{ path: '/etc/passwd' },
			{ file: './etc/passwd' },
			{ file: { '@type': 'inputFileLocal', path: '/etc/passwd' } },
			{ '@type': 'inputFileLocal', path: '/etc/passwd' },
			{ file: { _: 'inputFileGenerated', original_path: '/etc/passwd', conversion: '', expected_size: 0 } },
			{
				'@type': 'inputMessageDocument',
				document: { '@type': 'inputDocument', document: { '@type': 'inputFileLocal', path: '/etc/passwd' } },
			},
			[{ file: 'https://example.com/a.jpg' }, { file: '/etc/passwd' }],
		]
		for (const media of attempts) {
			const reply = await send({ chat_id: ALICE, media })
			expect(reply.payload).toMatchObject({ type: 'send_message_error', error: REFUSED })
		}
	})

	it('passes a ready-made inputMessage object through when its file is remote', async () => {
		const reply = await send({
			chat_id: ALICE,
			media: {
				'@type': 'inputMessageDocument',
				document: {
					'@type': 'inputDocument',
					document: { '@type': 'inputFileRemote', id: 'https://example.com/x.pdf' },
				},
				caption: { '@type': 'formattedText', text: 'raw' },
			},
		})
		expect((reply.payload.result as Msg).content).toMatchObject({
			_: 'messageDocument',
			caption: { text: 'raw' },
		})
	})

	it('sends 2 to 10 items as an album', async () => {
		const reply = await send({
			chat_id: ALICE,
			media_type: 'photo',
			text: 'album caption',
			media: [
				{ file: 'https://example.com/1.jpg' },
				{ file: 'https://example.com/2.jpg' },
				{ upload: 'cat.jpg' },
			],
		})
		const result = reply.payload.result as { _: string; total_count: number; messages: Msg[] }
		expect(result._).toBe('messages')
		expect(result.total_count).toBe(3)
		expect(result.messages.map((m) => m.content._)).toEqual(['messagePhoto', 'messagePhoto', 'messagePhoto'])
		expect(result.messages[0]!.content.caption).toMatchObject({ text: 'album caption' })
	})

	it('sends a one-item array as a single message, and refuses albums past 10 or of stickers', async () => {
		const one = await send({ chat_id: ALICE, media: [{ file: 'https://example.com/1.jpg' }] })
		expect((one.payload.result as Msg)._).toBe('message')
		const many = Array.from({ length: 11 }, (_, i) => ({ file: `https://example.com/${i}.jpg` }))
		expect((await send({ chat_id: ALICE, media: many })).payload.error).toBe(
			'media must contain at most 10 items',
		)
		const stickers = [
			{ file: 'https://e.com/1.webp', media_type: 'sticker' },
			{ file: 'https://e.com/2.webp', media_type: 'sticker' },
		]
		expect((await send({ chat_id: ALICE, media: stickers })).payload.error).toBe(
			'an album may contain only photo, video, document and audio',
		)
	})

	it('builds every media type into its 1.8.65 object', async () => {
		const expected: Record<string, string> = {
			photo: 'messagePhoto',
			video: 'messageVideo',
			document: 'messageDocument',
			audio: 'messageAudio',
			animation: 'messageAnimation',
			voice: 'messageVoiceNote',
			voice_note: 'messageVoiceNote',
			video_note: 'messageVideoNote',
			sticker: 'messageSticker',
		}
		for (const [media_type, content] of Object.entries(expected)) {
			const reply = await send({ chat_id: ALICE, media_type, media: { file: 'https://example.com/f.bin' } })
			expect([media_type, (reply.payload.result as Msg)?.content?._]).toEqual([media_type, content])
		}
		expect(
			(await send({ chat_id: ALICE, media_type: 'hologram', media: { file: 'https://e.com/f' } })).payload
				.error,
		).toBe(
			'media_type must be one of: photo, video, document, audio, animation, voice, voice_note, video_note, sticker',
		)
	})
})
