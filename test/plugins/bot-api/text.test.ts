import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { Bot } from 'grammy'
import type { MessagingFixture, WsClient } from '../../helpers-ws'
import { ALICE, BOB, type BotBody, catSent, createBotFixture, post, resultOf } from './support'

/**
 * The Bot API face's text (docs/bot-api.md#entities-and-parse_mode) over the emulator: parse_mode
 * through TDLib's parser on the command's side, MessageEntity both ways, link_preview_options,
 * reply_parameters, the send options, editMessageText and editMessageCaption. Bob (1002) is the
 * token's userbot; Alice (1001), of another company, writes to him.
 */
let f: MessagingFixture
let alice: number
let aliceWs: WsClient
let bobWs: WsClient
let token: string
beforeAll(async () => {
	;({ f, token, alice, aliceWs } = await createBotFixture({ alice: true, cat: true }))
	bobWs = await f.connect()
})
afterAll(() => f.stop())

type Body = BotBody & { result?: Record<string, unknown> }
const call = async (method: string, body: Record<string, unknown>) => {
	const { status, body: answer } = await post(f, token, method, body)
	return { status, body: answer as Body }
}
const form = async (method: string, fields: Record<string, string>) => {
	const res = await fetch(`${f.t.url}/bot${token}/${method}`, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams(fields).toString(),
	})
	return (await res.json()) as Body
}
const result = (method: string, body: Record<string, unknown>) => resultOf(f, token, method, body)

describe('parse_mode', () => {
	it('sendMessage with HTML answers the parsed text and its entities, offsets in UTF-16 units', async () => {
		const m = await result('sendMessage', {
			chat_id: ALICE,
			text: '😀 <b>bold</b> <a href="https://example.com">link</a> <code>x</code>',
			parse_mode: 'HTML',
		})
		expect(m.text).toBe('😀 bold link x')
		expect(m.entities).toEqual([
			{ type: 'bold', offset: 3, length: 4 },
			{ type: 'text_link', offset: 8, length: 4, url: 'https://example.com/' },
			{ type: 'code', offset: 13, length: 1 },
		])
	})

	it('MarkdownV2 and Markdown, in a form too', async () => {
		const v2 = await form('sendMessage', {
			chat_id: String(ALICE),
			text: '*b* ```python\nprint()\n``` ||s||',
			parse_mode: 'MarkdownV2',
		})
		expect(v2.result).toMatchObject({
			text: 'b print()\n s',
			entities: [
				{ type: 'bold', offset: 0, length: 1 },
				{ type: 'pre', offset: 2, length: 8, language: 'python' },
				{ type: 'spoiler', offset: 11, length: 1 },
			],
		})
		const v1 = await result('sendMessage', { chat_id: ALICE, text: '_it_', parse_mode: 'markdown' })
		expect(v1).toMatchObject({ text: 'it', entities: [{ type: 'italic', offset: 0, length: 2 }] })
	})

	it("answers TDLib's parse error as the Bot API words it, and an unknown parse_mode", async () => {
		expect(await call('sendMessage', { chat_id: ALICE, text: '<b>x', parse_mode: 'HTML' })).toEqual({
			status: 400,
			body: {
				ok: false,
				error_code: 400,
				description: `Bad Request: can't parse entities: Can't find end tag corresponding to start tag "b"`,
			},
		})
		expect(
			(await call('sendMessage', { chat_id: ALICE, text: 'a.b', parse_mode: 'MarkdownV2' })).body.description,
		).toBe(
			"Bad Request: can't parse entities: Character '.' is reserved and must be escaped with the preceding '\\'",
		)
		expect(
			(await call('sendMessage', { chat_id: ALICE, text: 'x', parse_mode: 'BBCode' })).body.description,
		).toBe('Bad Request: unsupported parse_mode')
	})

	it('parse_mode wins over entities, and none is no parse_mode, as the Bot API has it', async () => {
		const both = await result('sendMessage', {
			chat_id: ALICE,
			text: '<i>x</i>',
			parse_mode: 'HTML',
			entities: [{ type: 'bold', offset: 0, length: 1 }],
		})
		expect(both).toMatchObject({ text: 'x', entities: [{ type: 'italic', offset: 0, length: 1 }] })
		const none = await result('sendMessage', { chat_id: ALICE, text: '<i>x</i>', parse_mode: 'None' })
		expect(none.text).toBe('<i>x</i>')
		expect(none.entities).toBeUndefined()
	})
})

describe('entities', () => {
	it('MessageEntity in, textEntity to TDLib, MessageEntity back out, every kind', async () => {
		const entities = [
			{ type: 'bold', offset: 0, length: 1 },
			{ type: 'italic', offset: 1, length: 1 },
			{ type: 'underline', offset: 2, length: 1 },
			{ type: 'strikethrough', offset: 3, length: 1 },
			{ type: 'spoiler', offset: 4, length: 1 },
			{ type: 'code', offset: 5, length: 1 },
			{ type: 'pre', offset: 6, length: 1, language: 'go' },
			{ type: 'text_link', offset: 7, length: 1, url: 'https://example.com/' },
			{ type: 'text_mention', offset: 8, length: 1, user: { id: ALICE, is_bot: false, first_name: '' } },
			{ type: 'custom_emoji', offset: 9, length: 1, custom_emoji_id: '5368324170671202286' },
			{ type: 'blockquote', offset: 10, length: 1 },
			{ type: 'expandable_blockquote', offset: 11, length: 1 },
		]
		const m = await result('sendMessage', { chat_id: ALICE, text: 'abcdefghijkl', entities })
		expect(m.entities).toEqual(entities)
		// In a form, the list is JSON in a string; the kinds TDLib finds itself are dropped going in.
		const byForm = await form('sendMessage', {
			chat_id: String(ALICE),
			text: 'xy',
			entities: JSON.stringify([
				{ type: 'url', offset: 0, length: 1 },
				{ type: 'italic', offset: 1, length: 1 },
			]),
		})
		expect(byForm.result?.entities).toEqual([{ type: 'italic', offset: 1, length: 1 }])
	})

	it('refuses a malformed entity in the Bot API words, never echoing it', async () => {
		const cases: Array<[unknown, string]> = [
			[
				[{ type: 'sparkle-secret', offset: 0, length: 1 }],
				"can't parse MessageEntity: Unsupported type specified",
			],
			[[{ type: 'bold', length: 1 }], `can't parse MessageEntity: Can't find field "offset"`],
			[
				[{ type: 'bold', offset: 'x-secret', length: 1 }],
				`can't parse MessageEntity: Field "offset" must be a valid Number`,
			],
			[[{ type: 'text_link', offset: 0, length: 1 }], `can't parse MessageEntity: Can't find field "url"`],
			[['secret'], "can't parse MessageEntity: expected an Object"],
			['{secret', "can't parse entities JSON object"],
		]
		for (const [entities, words] of cases) {
			const { status, body } = await call('sendMessage', { chat_id: ALICE, text: 'x', entities })
			expect(status).toBe(400)
			expect(body.description).toBe(`Bad Request: ${words}`)
			expect(JSON.stringify(body)).not.toContain('secret')
		}
	})

	it("delivers another account's entities in getUpdates' messages", async () => {
		await aliceWs.command({
			action: 'send_message',
			userbot_id: alice,
			chat_id: BOB,
			text: 'hi *there*',
			parse_mode: 'MarkdownV2',
		})
		type U = { update_id: number; message: Record<string, unknown> }
		let found: U | undefined
		const until = Date.now() + 10_000
		while (!found && Date.now() < until) {
			const updates = (await call('getUpdates', { timeout: 1 })).body.result as unknown as U[]
			found = updates.find((u) => u.message.text === 'hi there')
			const last = updates[updates.length - 1]
			if (!found && last) await call('getUpdates', { offset: last.update_id + 1 })
		}
		expect(found?.message).toMatchObject({
			from: { id: ALICE },
			entities: [{ type: 'bold', offset: 3, length: 5 }],
		})
	})
})

describe('link_preview_options, reply_parameters and the send options', () => {
	it('link_preview_options reach TDLib and come back on the Message', async () => {
		const m = await result('sendMessage', {
			chat_id: ALICE,
			text: 'see https://example.com',
			link_preview_options: { is_disabled: true },
		})
		expect(m.link_preview_options).toEqual({ is_disabled: true })
		const above = await form('sendMessage', {
			chat_id: String(ALICE),
			text: 'see https://example.org',
			link_preview_options: JSON.stringify({
				url: 'https://example.org',
				prefer_large_media: true,
				show_above_text: true,
			}),
		})
		expect(above.result?.link_preview_options).toEqual({
			url: 'https://example.org',
			prefer_large_media: true,
			show_above_text: true,
		})
		// The older disable_web_page_preview still disables it.
		const legacy = await result('sendMessage', { chat_id: ALICE, text: 'x', disable_web_page_preview: true })
		expect(legacy.link_preview_options).toEqual({ is_disabled: true })
	})

	it('reply_parameters: the message replied to, in this chat only', async () => {
		const first = await result('sendMessage', { chat_id: ALICE, text: 'first' })
		const reply = await result('sendMessage', {
			chat_id: ALICE,
			text: 'a reply',
			reply_parameters: { message_id: first.message_id, chat_id: ALICE },
			disable_notification: true,
			protect_content: true,
		})
		expect(reply.reply_to_message).toMatchObject({ message_id: first.message_id, chat: { id: ALICE } })
		// protect_content reached TDLib's send options: the message can't be saved.
		expect(reply.has_protected_content).toBe(true)
		expect(first.has_protected_content).toBeUndefined()
		expect(
			(
				await call('sendMessage', {
					chat_id: ALICE,
					text: 'x',
					reply_parameters: { message_id: 1, chat_id: -100123 },
				})
			).body.description,
		).toBe('Bad Request: reply_parameters.chat_id must be the chat the message is sent to')
		expect(
			(await call('sendMessage', { chat_id: ALICE, text: 'x', reply_parameters: {} })).body.description,
		).toBe('Bad Request: reply_parameters.message_id is empty')
	})
})

describe('editing', () => {
	it('editMessageText parses and keeps the link preview options', async () => {
		const sent = await result('sendMessage', { chat_id: ALICE, text: 'before' })
		const edited = await result('editMessageText', {
			chat_id: ALICE,
			message_id: sent.message_id,
			text: '<u>after</u> https://example.com',
			parse_mode: 'HTML',
			link_preview_options: { is_disabled: true },
		})
		expect(edited).toMatchObject({
			message_id: sent.message_id,
			text: 'after https://example.com',
			entities: [{ type: 'underline', offset: 0, length: 5 }],
			link_preview_options: { is_disabled: true },
		})
	})

	it('editMessageCaption replaces a photo caption, with caption_entities or parse_mode', async () => {
		const id = await catSent(bobWs, f.userbotId, 'old')
		const byEntities = await result('editMessageCaption', {
			chat_id: ALICE,
			message_id: id,
			caption: 'new one',
			caption_entities: [{ type: 'bold', offset: 0, length: 3 }],
		})
		expect(byEntities).toMatchObject({
			caption: 'new one',
			caption_entities: [{ type: 'bold', offset: 0, length: 3 }],
		})
		const parsed = await result('editMessageCaption', {
			chat_id: ALICE,
			message_id: id,
			caption: '_newer_',
			parse_mode: 'MarkdownV2',
			show_caption_above_media: true,
		})
		expect(parsed).toMatchObject({
			caption: 'newer',
			caption_entities: [{ type: 'italic', offset: 0, length: 5 }],
			show_caption_above_media: true,
		})
		const text = await result('sendMessage', { chat_id: ALICE, text: 'no caption here' })
		expect(
			(await call('editMessageCaption', { chat_id: ALICE, message_id: text.message_id, caption: 'x' })).body,
		).toEqual({
			ok: false,
			error_code: 400,
			description: 'Bad Request: there is no caption in the message to edit',
		})
	})
})

describe('grammY, unchanged', () => {
	it('sends with parse_mode and reads the entities back', async () => {
		const bot = new Bot(token, { client: { apiRoot: f.t.url } })
		const sent = await bot.api.sendMessage(ALICE, '<b>grammY</b> says hi', { parse_mode: 'HTML' })
		expect(sent).toMatchObject({ text: 'grammY says hi', entities: [{ type: 'bold', offset: 0, length: 6 }] })
		const edited = await bot.api.editMessageText(ALICE, sent.message_id, '*edited*', {
			parse_mode: 'MarkdownV2',
		})
		expect(edited).toMatchObject({ text: 'edited', entities: [{ type: 'bold', offset: 0, length: 6 }] })
	})
})
