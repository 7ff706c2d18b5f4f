import { describe, expect, it } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { facetsOf, passes } from '../../src/server/updates/event-facets'
import {
	type EventFilter,
	FILTER_LIMITS,
	FilterErrors,
	MEDIA_KINDS,
	mediaKindOf,
	parseFilter,
} from '../../src/server/updates/filter'

/** Issue 46, the filter object alone: what it takes, what it refuses, what it passes. */

const filterOf = (value: unknown): EventFilter | undefined => {
	const parsed = parseFilter(value)
	if (!parsed.ok) throw new Error(parsed.error)
	return parsed.filter
}
const errorOf = (value: unknown): string => {
	const parsed = parseFilter(value)
	if (parsed.ok) throw new Error('taken')
	return parsed.error
}

const message = (m: {
	chat?: number
	sender?: { user_id: number } | { chat_id: number }
	outgoing?: boolean
	content?: Record<string, unknown>
}) => ({
	_: 'updateNewMessage',
	message: {
		id: 1,
		chat_id: m.chat ?? 1001,
		sender_id: m.sender
			? 'user_id' in m.sender
				? { _: 'messageSenderUser', ...m.sender }
				: { _: 'messageSenderChat', ...m.sender }
			: { _: 'messageSenderUser', user_id: 1001 },
		is_outgoing: m.outgoing ?? false,
		content: m.content ?? { _: 'messageText', text: { _: 'formattedText', text: 'hello', entities: [] } },
	},
})
const text = (t: string) => ({ _: 'messageText', text: { _: 'formattedText', text: t, entities: [] } })
const photo = (caption: string) => ({
	_: 'messagePhoto',
	photo: {},
	caption: { _: 'formattedText', text: caption, entities: [] },
})
const pass = (filter: unknown, update: Record<string, unknown>) => passes(filterOf(filter), facetsOf(update))

describe('event filter: checking', () => {
	it('takes an absent, null or empty filter as none (everything passes)', () => {
		expect(filterOf(undefined)).toBeUndefined()
		expect(filterOf(null)).toBeUndefined()
		expect(filterOf({})).toBeUndefined()
		expect(pass({}, { _: 'updateAuthorizationState' })).toBe(true)
	})

	it('refuses each bad field with its own sentence, never quoting the value', () => {
		const secret = 'SECRET-VALUE-42'
		const cases: Array<[unknown, string]> = [
			[secret, FilterErrors.NOT_AN_OBJECT],
			[[1], FilterErrors.NOT_AN_OBJECT],
			[{ chat_id: [1] }, FilterErrors.UNKNOWN_FIELD],
			[{ [secret]: 1 }, FilterErrors.UNKNOWN_FIELD],
			[{ chat_ids: secret }, FilterErrors.CHAT_IDS],
			[{ chat_ids: [] }, FilterErrors.CHAT_IDS],
			[{ chat_ids: [1.5] }, FilterErrors.CHAT_IDS],
			[{ chat_ids: [2 ** 60] }, FilterErrors.CHAT_IDS],
			[{ chat_ids: [secret] }, FilterErrors.CHAT_IDS],
			[{ chat_ids: Array.from({ length: FILTER_LIMITS.ids + 1 }, (_, i) => i + 1) }, FilterErrors.CHAT_IDS],
			[{ sender_ids: [0] }, FilterErrors.SENDER_IDS],
			[{ outgoing: 'yes' }, FilterErrors.OUTGOING],
			[{ media: [secret] }, FilterErrors.MEDIA],
			[{ media: 'photo' }, FilterErrors.MEDIA],
			[{ contains: ['two words'] }, FilterErrors.CONTAINS],
			[{ contains: ['x'.repeat(FILTER_LIMITS.wordLength + 1)] }, FilterErrors.CONTAINS],
			[{ contains: Array(FILTER_LIMITS.words + 1).fill('w') }, FilterErrors.CONTAINS],
			[{ pattern: '' }, FilterErrors.PATTERN],
			[{ pattern: 5 }, FilterErrors.PATTERN],
			[{ pattern: 'a'.repeat(FILTER_LIMITS.patternLength + 1) }, FilterErrors.PATTERN],
			[{ pattern: `(${secret}` }, FilterErrors.PATTERN_INVALID],
			[{ pattern: `${secret}(?=x)` }, FilterErrors.PATTERN_INVALID],
			[{ pattern: `${secret}\\1` }, FilterErrors.PATTERN_INVALID],
			[{ pattern: '((((a{100}){10}){10}){10})' }, FilterErrors.PATTERN_INVALID],
			[{ pattern: 'a{1000}b{1000}c{1000}d{1000}e{1000}' }, FilterErrors.PATTERN_TOO_COMPLEX],
		]
		for (const [value, error] of cases) {
			expect([JSON.stringify(value).slice(0, 60), errorOf(value)]).toEqual([
				JSON.stringify(value).slice(0, 60),
				error,
			])
			expect(errorOf(value)).not.toContain(secret)
		}
	})

	it('names every media kind after TDLib 1.8.65 message contents that exist', () => {
		const types = readFileSync(
			join(import.meta.dir, '../../node_modules/@prebuilt-tdlib/types/tdlib-types.d.ts'),
			'utf8',
		)
		const union = types.slice(types.indexOf('export type MessageContent ='))
		const contents = union.slice(0, union.indexOf(';')).match(/message[A-Za-z]+/g) ?? []
		const listed = Object.values(MEDIA_KINDS).flat() as string[]
		for (const c of listed) expect(contents).toContain(c)
		// What no kind lists is a service message: members, titles, calls, payments, gifts...
		expect(mediaKindOf('messageChatAddMembers')).toBe('service')
		expect(mediaKindOf('messagePinMessage')).toBe('service')
		expect(mediaKindOf('messageVoiceNote')).toBe('voice')
		expect(contents.length).toBeGreaterThan(listed.length)
	})
})

describe('event filter: matching', () => {
	it('passes chat_ids, sender_ids (users and chats) and outgoing on a new message', () => {
		const incoming = message({ chat: -2001, sender: { user_id: 1001 } })
		const post = message({ chat: -1000000003002, sender: { chat_id: -1000000003002 }, outgoing: true })
		expect(pass({ chat_ids: [-2001, 5] }, incoming)).toBe(true)
		expect(pass({ chat_ids: [5] }, incoming)).toBe(false)
		expect(pass({ sender_ids: [1001] }, incoming)).toBe(true)
		expect(pass({ sender_ids: [-1000000003002] }, post)).toBe(true)
		expect(pass({ sender_ids: [-1000000003002] }, incoming)).toBe(false)
		expect(pass({ outgoing: false }, incoming)).toBe(true)
		expect(pass({ outgoing: true }, incoming)).toBe(false)
		expect(pass({ outgoing: true, chat_ids: [-1000000003002] }, post)).toBe(true)
	})

	it('passes media kinds, and words of the text or caption in any case, whole words only', () => {
		expect(pass({ media: ['photo'] }, message({ content: photo('x') }))).toBe(true)
		expect(pass({ media: ['text'] }, message({ content: photo('x') }))).toBe(false)
		expect(pass({ contains: ['INVOICE'] }, message({ content: photo('Your invoice, sir') }))).toBe(true)
		expect(pass({ contains: ['invoice'] }, message({ content: text('invoices attached') }))).toBe(false)
		expect(pass({ contains: ['ÉTÉ'] }, message({ content: text('un été chaud') }))).toBe(true)
		expect(pass({ contains: ['nope', 'chaud'] }, message({ content: text('un été chaud') }))).toBe(true)
		// No text at all (a sticker): no word is in it.
		expect(pass({ contains: ['x'] }, message({ content: { _: 'messageSticker', sticker: {} } }))).toBe(false)
	})

	it('runs the pattern on RE2: anywhere in the text, (?i) for any case', () => {
		expect(pass({ pattern: '^order #\\d+$' }, message({ content: text('order #12') }))).toBe(true)
		expect(pass({ pattern: '^order #\\d+$' }, message({ content: text('an order #12') }))).toBe(false)
		expect(pass({ pattern: '(?i)ORDER' }, message({ content: text('an order') }))).toBe(true)
	})

	it('finishes a pathological pattern on a long text (linear time: no backtracking)', () => {
		// With JavaScript's RegExp, (a+)+$ against 30 a's and a b takes 2^30 steps: minutes. RE2: linear.
		const filter = filterOf({ pattern: '(a+)+$' })
		expect(filter?.pattern?.constructor.name).toBe('RE2JS')
		const long = message({ content: text(`${'a'.repeat(100_000)}b`) })
		expect(passes(filter, facetsOf(long))).toBe(false)
		expect(passes(filter, facetsOf(message({ content: text('aaa') })))).toBe(true)
	})

	it('holds an event to every facet the filter names: one it does not carry does not pass', () => {
		const deleted = { _: 'updateDeleteMessages', chat_id: -2001, message_ids: [1], is_permanent: true }
		const edited = {
			_: 'updateMessageContent',
			chat_id: -2001,
			message_id: 1,
			new_content: text('now urgent'),
		}
		const state = { _: 'updateAuthorizationState', authorization_state: {} }
		expect(pass({ chat_ids: [-2001] }, deleted)).toBe(true)
		expect(pass({ chat_ids: [-2001], outgoing: true }, deleted)).toBe(false)
		expect(pass({ chat_ids: [-2001] }, state)).toBe(false)
		expect(pass({ contains: ['urgent'], media: ['text'] }, edited)).toBe(true)
		expect(pass({ sender_ids: [1001] }, edited)).toBe(false)
		expect(
			pass(
				{ sender_ids: [1001] },
				{ _: 'updateChatAction', chat_id: 1001, sender_id: { _: 'messageSenderUser', user_id: 1001 } },
			),
		).toBe(true)
	})
})
