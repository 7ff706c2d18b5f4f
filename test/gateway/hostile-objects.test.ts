import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type { RequestEvent } from '../../src/supervisor/types'
import { SEED_CHATS } from '../../src/telegram/emulator'
import { createMessagingFixture, type MessagingFixture } from '../helpers-ws'

/**
 * Issue 7, item 1: no client object reaches TDLib unchecked. Each hostile object goes, at the top
 * level and nested, into every field through which a client hands TDLib an object; every frame must
 * be answered with one of our errors, and not one request may reach the runtime. A numeric `_` is
 * TDLib's constructor id: 2056030919 is `inputFileLocal`, which would send a file of the server's.
 */
const LOCAL_BY_NUMBER = { _: 2056030919, path: '/etc/passwd' }
const HOSTILE: Record<string, unknown> = {
	'numeric _': LOCAL_BY_NUMBER,
	'numeric @type': { '@type': 2056030919, path: '/etc/passwd' },
	inputFileLocal: { '@type': 'inputFileLocal', path: '/etc/passwd' },
	inputFileGenerated: {
		'@type': 'inputFileGenerated',
		original_path: '/etc/passwd',
		conversion: '',
		expected_size: 0,
	},
	'unknown type': { '@type': 'noSuchType' },
	'two types': { _: 'textEntityTypeBold', '@type': 'textEntityTypeItalic' },
	'unknown key': { '@type': 'textEntityTypeBold', path: '/etc/passwd' },
	'type of another class': { '@type': 'chatTypePrivate', user_id: 1 },
	'100 levels deep': Array.from({ length: 100 }).reduce<unknown>((inner) => ({ '@type': 'x', x: inner }), {}),
}

const entity = (type: unknown) => ({ '@type': 'textEntity', offset: 0, length: 1, type })
const formatted = (type: unknown) => ({ '@type': 'formattedText', text: 'x', entities: [entity(type)] })
const remote = { '@type': 'inputFileRemote', id: 'https://example.com/a.pdf' }

/** Each frame puts one hostile object `h` somewhere a client object goes. */
const PLACES: Record<string, (h: unknown) => Record<string, unknown>> = {
	'send_message reply_to': (h) => ({ action: 'send_message', text: 'x', reply_to: h }),
	'send_message reply_to, nested in a quote': (h) => ({
		action: 'send_message',
		text: 'x',
		reply_to: {
			'@type': 'inputMessageReplyToMessage',
			message_id: 1,
			quote: { '@type': 'inputTextQuote', text: formatted(h) },
		},
	}),
	'send_message options': (h) => ({ action: 'send_message', text: 'x', options: h }),
	'send_message options, nested': (h) => ({
		action: 'send_message',
		text: 'x',
		options: { '@type': 'messageSendOptions', scheduling_state: h },
	}),
	'send_message reply_markup': (h) => ({ action: 'send_message', text: 'x', reply_markup: h }),
	'send_message reply_markup, nested in a button': (h) => ({
		action: 'send_message',
		text: 'x',
		reply_markup: {
			'@type': 'replyMarkupInlineKeyboard',
			rows: [[{ '@type': 'inlineKeyboardButton', text: 'x', type: h }]],
		},
	}),
	'send_message entities': (h) => ({ action: 'send_message', text: 'x', entities: [h] }),
	'send_message entities, nested': (h) => ({ action: 'send_message', text: 'x', entities: [entity(h)] }),
	'send_message topic_id': (h) => ({ action: 'send_message', text: 'x', topic_id: h }),
	'send_message text object': (h) => ({ action: 'send_message', text: formatted(h) }),
	'send_message media': (h) => ({ action: 'send_message', media: h }),
	'send_message media file': (h) => ({ action: 'send_message', media: { file: h } }),
	'send_message media content, nested file': (h) => ({
		action: 'send_message',
		media: { '@type': 'inputMessageDocument', document: { '@type': 'inputDocument', document: h } },
	}),
	'send_message media content, thumbnail': (h) => ({
		action: 'send_message',
		media: {
			'@type': 'inputMessageDocument',
			document: {
				'@type': 'inputDocument',
				document: remote,
				thumbnail: { '@type': 'inputThumbnail', thumbnail: h },
			},
		},
	}),
	'send_message album item': (h) => ({ action: 'send_message', media: [{ file: remote.id }, h] }),
	'reply_message text': (h) => ({ action: 'reply_message', text: formatted(h) }),
	'edit_message text': (h) => ({ action: 'edit_message', message_id: 1048576, text: formatted(h) }),
	'forward_message new_caption': (h) => ({
		action: 'forward_message',
		to_chat_ids: [SEED_CHATS.supergroup],
		from_chat_id: SEED_CHATS.basicGroup,
		message_ids: [1048576],
		new_caption: formatted(h),
	}),
	'set_reaction reaction': (h) => ({ action: 'set_reaction', message_id: 1048576, reaction: h }),
	'set_reaction reaction list': (h) => ({ action: 'set_reaction', message_id: 1048576, reaction: [h] }),
}

describe('client objects at every pass-through field', () => {
	let f: MessagingFixture
	const seen: RequestEvent[] = []
	beforeAll(async () => {
		f = await createMessagingFixture()
		f.t.ctx.runtime!.onRequest((event) => seen.push(event))
	})
	afterAll(() => f.stop())

	it('are refused with our own words before anything reaches TDLib', async () => {
		const c = await f.connect()
		const outcomes: string[] = []
		for (const [place, build] of Object.entries(PLACES)) {
			for (const [kind, hostile] of Object.entries(HOSTILE)) {
				const frame: Record<string, unknown> = {
					userbot_id: f.userbotId,
					chat_id: SEED_CHATS.basicGroup,
					...build(hostile),
				}
				const reply = await c.command(frame)
				const { type, error } = reply.payload
				if (type !== `${String(frame.action)}_error` || !error || error.startsWith('Failed to parse JSON')) {
					outcomes.push(`${place} / ${kind}: ${JSON.stringify(reply.payload)}`)
				}
			}
		}
		expect(outcomes).toEqual([])
		expect(seen.map((e) => e.request._)).toEqual([])
		c.close()
	})

	it('say where the object is wrong, and never repeat what was sent', async () => {
		const c = await f.connect()
		const error = async (frame: Record<string, unknown>) =>
			(await c.command({ userbot_id: f.userbotId, chat_id: SEED_CHATS.basicGroup, ...frame })).payload.error
		expect(await error({ action: 'send_message', text: 'x', reply_to: LOCAL_BY_NUMBER })).toBe(
			'reply_to: @type must be a TDLib type name',
		)
		expect(
			await error({
				action: 'send_message',
				text: 'x',
				entities: [entity({ '@type': 'inputFileLocal', path: '/etc/passwd' })],
			}),
		).toBe('entities[0].type: inputFileLocal is not allowed here')
		// Where a file does go, the one wording of contract §6.
		expect(
			await error({
				action: 'send_message',
				media: {
					'@type': 'inputMessageDocument',
					document: {
						'@type': 'inputDocument',
						document: { '@type': 'inputFileLocal', path: '/etc/passwd' },
					},
				},
			}),
		).toBe('media must be a URL, a remote file id or an uploaded file')
		expect(
			await error({
				action: 'send_message',
				text: 'x',
				options: { '@type': 'messageSendOptions', secret: '/etc/passwd' },
			}),
		).toBe('options: unknown field for messageSendOptions')
		expect(
			await error({
				action: 'send_message',
				text: 'x',
				reply_to: { '@type': 'messageSenderUser', user_id: 1 },
			}),
		).toBe('reply_to: messageSenderUser is not allowed here')
		expect(
			await error({
				action: 'send_message',
				text: 'x',
				entities: [entity({ '@type': 'textEntityTypeTextUrl', url: 5 })],
			}),
		).toBe('entities[0].type.url must be a string')
		c.close()
	})

	it('are let through when well formed, to TDLib in its own form', async () => {
		const c = await f.connect()
		const reply = await c.command({
			action: 'send_message',
			userbot_id: f.userbotId,
			chat_id: SEED_CHATS.basicGroup,
			text: { '@type': 'formattedText', text: 'bold', entities: [entity({ '@type': 'textEntityTypeBold' })] },
			options: { '@type': 'messageSendOptions', disable_notification: true },
		})
		expect(reply.payload.type).toBe('send_message')
		const sent = seen.at(-1)!.request as Record<string, unknown>
		expect(sent.options).toEqual({ _: 'messageSendOptions', disable_notification: true })
		expect(sent.input_message_content).toEqual({
			_: 'inputMessageText',
			text: {
				_: 'formattedText',
				text: 'bold',
				entities: [{ _: 'textEntity', offset: 0, length: 1, type: { _: 'textEntityTypeBold' } }],
			},
		})
		c.close()
	})
})
