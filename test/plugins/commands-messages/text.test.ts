import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { uploadsDir } from '../../../src/server/commands/uploads'
import { createMessagingFixture, type MessagingFixture, type WsClient } from '../../helpers-ws'

/**
 * The messages commands' text fields: `parse_mode` through TDLib's parser (`parseTextEntities`,
 * the emulator's port held to real TDLib in test/telegram/emulator-parse-text.test.ts),
 * `link_preview_options`, caption edits, copies with a parsed caption, and unpinning every message.
 */
let f: MessagingFixture
let c: WsClient
const ALICE = 1001 // Bob's private chat with Alice in the emulator's seed

beforeAll(async () => {
	f = await createMessagingFixture()
	c = await f.connect()
	const dir = uploadsDir(f.t.config.dataDir, f.userbotId)
	mkdirSync(dir, { recursive: true })
	writeFileSync(join(dir, 'cat.jpg'), 'jpeg bytes')
})
afterAll(() => f.stop())

type Msg = { id: number; chat_id: number; is_pinned: boolean; content: Record<string, unknown> }
const run = async (action: string, fields: Record<string, unknown>) =>
	(await c.command({ action, userbot_id: f.userbotId, ...fields })).payload
const result = async (action: string, fields: Record<string, unknown>) => {
	const payload = await run(action, fields)
	if (payload.type !== action) throw new Error(`${action}: ${JSON.stringify(payload)}`)
	return payload.result as Msg
}
const entity = (offset: number, length: number, type: Record<string, unknown>) => ({
	_: 'textEntity',
	offset,
	length,
	type,
})

describe('parse_mode', () => {
	it('send_message sends the text TDLib parsed from HTML, its entities in UTF-16 units', async () => {
		const msg = await result('send_message', {
			chat_id: ALICE,
			text: '😀 <b>bold</b> <a href="https://example.com">link</a>',
			parse_mode: 'HTML',
			wait_sent: true,
		})
		expect(msg.content.text).toEqual({
			_: 'formattedText',
			text: '😀 bold link',
			entities: [
				entity(3, 4, { _: 'textEntityTypeBold' }),
				entity(8, 4, { _: 'textEntityTypeTextUrl', url: 'https://example.com/' }),
			],
		})
	})

	it('reads MarkdownV2 and Markdown, in any case', async () => {
		const v2 = await result('send_message', {
			chat_id: ALICE,
			text: '*b* _i_ ||s||',
			parse_mode: 'markdownv2',
		})
		expect(v2.content.text).toMatchObject({
			text: 'b i s',
			entities: [
				entity(0, 1, { _: 'textEntityTypeBold' }),
				entity(2, 1, { _: 'textEntityTypeItalic' }),
				entity(4, 1, { _: 'textEntityTypeSpoiler' }),
			],
		})
		const v1 = await result('send_message', { chat_id: ALICE, text: '`code` *b*', parse_mode: 'Markdown' })
		expect(v1.content.text).toMatchObject({
			text: 'code b',
			entities: [entity(0, 4, { _: 'textEntityTypeCode' }), entity(5, 1, { _: 'textEntityTypeBold' })],
		})
	})

	it("answers TDLib's own words when the markup does not parse", async () => {
		expect(
			await run('send_message', { chat_id: ALICE, text: '*open', parse_mode: 'MarkdownV2' }),
		).toMatchObject({
			type: 'send_message_error',
			error: "Can't parse entities: Can't find end of Bold entity at byte offset 0",
		})
		expect(await run('reply_message', { chat_id: ALICE, text: '<x>', parse_mode: 'HTML' })).toMatchObject({
			type: 'reply_message_error',
			error: `Can't parse entities: Unsupported start tag "x" at byte offset 0`,
		})
	})

	it('refuses an unknown parse_mode, entities beside it, and a formattedText to parse', async () => {
		expect((await run('send_message', { chat_id: ALICE, text: 'x', parse_mode: 'BBCode' })).error).toBe(
			'parse_mode must be one of: HTML, MarkdownV2, Markdown',
		)
		const entities = [entity(0, 1, { _: 'textEntityTypeBold' })]
		expect(
			(await run('send_message', { chat_id: ALICE, text: 'x', entities, parse_mode: 'HTML' })).error,
		).toBe("entities can't be used with parse_mode")
		const text = { _: 'formattedText', text: '<b>x</b>', entities: [] }
		expect((await run('send_message', { chat_id: ALICE, text, parse_mode: 'HTML' })).error).toBe(
			'with parse_mode, the text must be a string',
		)
	})

	it("parses a media item's caption, and the text that stands for it", async () => {
		const own = await result('send_message', {
			chat_id: ALICE,
			media: { upload: 'cat.jpg', media_type: 'photo', caption: '<i>cat</i>' },
			parse_mode: 'HTML',
		})
		expect(own.content.caption).toMatchObject({
			text: 'cat',
			entities: [entity(0, 3, { _: 'textEntityTypeItalic' })],
		})
		const fallback = await result('send_message', {
			chat_id: ALICE,
			media: { upload: 'cat.jpg', media_type: 'photo' },
			text: '<u>cat</u>',
			parse_mode: 'HTML',
		})
		expect(fallback.content.caption).toMatchObject({
			text: 'cat',
			entities: [entity(0, 3, { _: 'textEntityTypeUnderline' })],
		})
	})

	it('reply_message and edit_message parse too', async () => {
		const sent = await result('send_message', { chat_id: ALICE, text: 'first', wait_sent: true })
		const reply = await result('reply_message', {
			chat_id: ALICE,
			reply_to_message_id: sent.id,
			text: '<s>gone</s>',
			parse_mode: 'HTML',
		})
		expect(reply.content.text).toMatchObject({
			text: 'gone',
			entities: [entity(0, 4, { _: 'textEntityTypeStrikethrough' })],
		})
		const edited = await result('edit_message', {
			chat_id: ALICE,
			message_id: sent.id,
			text: '__now__',
			parse_mode: 'MarkdownV2',
		})
		expect(edited.content.text).toMatchObject({
			text: 'now',
			entities: [entity(0, 3, { _: 'textEntityTypeUnderline' })],
		})
	})
})

describe('link_preview_options', () => {
	it('send_message and edit_message hand them to TDLib with the text', async () => {
		const options = {
			is_disabled: true,
			url: '',
			force_small_media: false,
			force_large_media: false,
			show_above_text: false,
		}
		const msg = await result('send_message', {
			chat_id: ALICE,
			text: 'see https://example.com',
			link_preview_options: { is_disabled: true },
			wait_sent: true,
		})
		expect(msg.content.link_preview_options).toEqual({ _: 'linkPreviewOptions', ...options })
		const edited = await result('edit_message', {
			chat_id: ALICE,
			message_id: msg.id,
			text: 'see https://example.org',
			link_preview_options: { show_above_text: true },
		})
		expect(edited.content.link_preview_options).toEqual({
			_: 'linkPreviewOptions',
			...options,
			is_disabled: false,
			show_above_text: true,
		})
	})
})

describe('edit_message with caption', () => {
	it("replaces a media message's caption (editMessageCaption), parsed or with entities", async () => {
		const photo = await result('send_message', {
			chat_id: ALICE,
			media: { upload: 'cat.jpg', media_type: 'photo', caption: 'old' },
			wait_sent: true,
		})
		const edited = await result('edit_message', {
			chat_id: ALICE,
			message_id: photo.id,
			caption: '<b>new</b>',
			parse_mode: 'HTML',
			show_caption_above_media: true,
		})
		expect(edited.content).toMatchObject({
			_: 'messagePhoto',
			caption: { text: 'new', entities: [entity(0, 3, { _: 'textEntityTypeBold' })] },
			show_caption_above_media: true,
		})
	})

	it("answers TDLib's words for a message without a caption, and refuses text and caption together", async () => {
		const text = await result('send_message', { chat_id: ALICE, text: 'plain', wait_sent: true })
		expect(await run('edit_message', { chat_id: ALICE, message_id: text.id, caption: 'x' })).toMatchObject({
			type: 'edit_message_error',
			error: 'There is no caption in the message to edit',
		})
		expect(
			(await run('edit_message', { chat_id: ALICE, message_id: text.id, caption: 'x', text: 'y' })).error,
		).toBe('text and caption can not be edited together')
	})
})

describe('forward_message', () => {
	it('copies with a new caption that TDLib parsed', async () => {
		const photo = await result('send_message', {
			chat_id: ALICE,
			media: { upload: 'cat.jpg', media_type: 'photo', caption: 'orig' },
			wait_sent: true,
		})
		const payload = await run('forward_message', {
			to_chat_ids: [ALICE],
			from_chat_id: ALICE,
			message_ids: [photo.id],
			send_copy: true,
			new_caption: '*copied*',
			parse_mode: 'MarkdownV2',
		})
		const [target] = payload.result as Array<{ messages: Msg[] }>
		expect(target?.messages[0]?.content.caption).toMatchObject({
			text: 'copied',
			entities: [entity(0, 6, { _: 'textEntityTypeBold' })],
		})
	})
})

describe('unpin_message', () => {
	it('with all unpins every pinned message of the chat (unpinAllChatMessages)', async () => {
		const a = await result('send_message', { chat_id: ALICE, text: 'pin a', wait_sent: true })
		const b = await result('send_message', { chat_id: ALICE, text: 'pin b', wait_sent: true })
		for (const m of [a, b]) await result('pin_message', { chat_id: ALICE, message_id: m.id })
		const pinned = async (id: number) =>
			(await result('get_message', { chat_id: ALICE, message_id: id })).is_pinned
		expect([await pinned(a.id), await pinned(b.id)]).toEqual([true, true])
		expect(await run('unpin_message', { chat_id: ALICE, all: true })).toMatchObject({ type: 'unpin_message' })
		expect([await pinned(a.id), await pinned(b.id)]).toEqual([false, false])
	})

	it('wants a message_id without all, and not both', async () => {
		expect((await run('unpin_message', { chat_id: ALICE })).error).toBe('message_id is required')
		expect((await run('unpin_message', { chat_id: ALICE, message_id: 2 ** 20, all: true })).error).toBe(
			'message_id and all can not be used together',
		)
	})
})

describe('set_reaction with replace', () => {
	it("makes the account's reactions exactly the list: the others removed, [] removes all", async () => {
		const m = await result('send_message', { chat_id: ALICE, text: 'react', wait_sent: true })
		const emoji = (e: string) => ({ '@type': 'reactionTypeEmoji', emoji: e })
		const mine = async () => {
			const td = (await result('get_message', { chat_id: ALICE, message_id: m.id })) as unknown as {
				interaction_info?: {
					reactions: { reactions: Array<{ type: { emoji: string }; is_chosen: boolean }> }
				}
			}
			return (td.interaction_info?.reactions.reactions ?? [])
				.filter((r) => r.is_chosen)
				.map((r) => r.type.emoji)
		}
		await result('set_reaction', { chat_id: ALICE, message_id: m.id, reaction: emoji('👍') })
		await result('set_reaction', { chat_id: ALICE, message_id: m.id, reaction: [emoji('🔥')], replace: true })
		expect(await mine()).toEqual(['🔥'])
		await result('set_reaction', { chat_id: ALICE, message_id: m.id, reaction: [], replace: true })
		expect(await mine()).toEqual([])
		// Without replace an empty list is no valid reaction, as before.
		expect((await run('set_reaction', { chat_id: ALICE, message_id: m.id, reaction: [] })).error).toBe(
			'reaction must contain at least one valid reaction item',
		)
	})
})
