import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { SEED_CHATS } from '../../src/emulator'
import { FilterErrors } from '../../src/server/updates/filter'
import {
	createLoggedInUserbot,
	createMessagingFixture,
	type MessagingFixture,
	type WsClient,
} from '../helpers-ws'
import { ALICE, type Planned, plan, sendAll, tagOf } from './mixed-stream'

/**
 * Issue 46 over the real WebSocket, supervisor and emulator: subscriptions with a filter get exactly
 * the messages it passes out of a mixed stream of 200, in order, and resume across what it dropped
 * without a `resync`; a bad filter is refused in our words, the value never quoted.
 */
const { basicGroup, channel } = SEED_CHATS

interface Frame {
	type?: string
	seq?: number
	userbot_id?: number
}

/** The filters under test, each with the test's own reading of what it passes. */
const FILTERS: Array<{ filter: Record<string, unknown>; wants: (m: Planned) => boolean }> = [
	{
		filter: { chat_ids: [ALICE, basicGroup], outgoing: false },
		wants: (m) => [ALICE, basicGroup].includes(m.bobChat) && !m.outgoing,
	},
	{
		filter: { media: ['photo', 'document'], contains: ['INVOICE'] },
		// `invoices` is another word: only `Invoice`, in any case.
		wants: (m) => ['photo', 'document'].includes(m.media) && /\binvoice\b/i.test(m.text),
	},
	{ filter: { sender_ids: [channel] }, wants: (m) => m.sender === channel },
	{ filter: { pattern: '^order #\\d+ placed' }, wants: (m) => m.text.startsWith('order #') },
	{
		filter: { outgoing: true, media: ['text', 'voice'], contains: ['urgent', 'asap'] },
		wants: (m) => m.outgoing && ['text', 'voice'].includes(m.media) && /\b(urgent|asap)\b/i.test(m.text),
	},
]

describe('filtered subscriptions', () => {
	let f: MessagingFixture
	let a: number
	const b = () => f.userbotId
	beforeAll(async () => {
		f = await createMessagingFixture()
		a = await createLoggedInUserbot(f.t, f.mallory.companyId, '9996611111')
	})
	afterAll(() => f.stop())

	const subscribe = async (filter?: Record<string, unknown>, after?: number) => {
		const c = await f.connect()
		const reply = await c.command({
			action: 'subscribe',
			userbot_id: b(),
			updates: ['updateNewMessage'],
			...(filter ? { filter } : {}),
			...(after !== undefined ? { after } : {}),
		})
		expect(reply.payload.type).toBe('subscribe')
		return c
	}
	const frames = (c: WsClient) => (c.received as unknown as Frame[]).filter((m) => m.userbot_id === b())
	const tags = (c: WsClient) => frames(c).flatMap((m) => tagOf(m) ?? [])

	it('gives each filtered subscription exactly the messages it passes out of 200, in order', async () => {
		const control = await subscribe()
		const filtered = await Promise.all(FILTERS.map((x) => subscribe(x.filter)))
		const messages = plan()
		const alice = await f.connect(f.mallory)
		const bob = await f.connect()
		await sendAll(messages, { alice, bob }, { alice: a, bob: b() })

		// The control (no filter) sees all 200; from then on every subscription has had its turn at
		// each of them (one socket's updates go out in order): waiting for the last one each should
		// get is enough, and nothing it should not get can come after.
		await control.take((m) => tagOf(m) === 'm199', 20_000)
		const order = tags(control)
		expect([...order].sort()).toEqual(messages.map((m) => m.tag).sort())
		for (const [i, { wants }] of FILTERS.entries()) {
			const c = filtered[i] as WsClient
			const expected = order.filter((tag) => wants(messages[Number(tag.slice(1))] as Planned))
			expect(expected.length).toBeGreaterThan(2)
			expect(expected.length).toBeLessThan(100)
			await c.take((m) => tagOf(m) === expected.at(-1), 20_000)
			expect(tags(c)).toEqual(expected)
			// Nothing else came: no other update, no resync; the numbers are the userbot's, with gaps.
			const updates = frames(c).filter((m) => m.type === 'update' || m.type === 'resync')
			expect(updates.every((m) => m.type === 'update')).toBe(true)
			expect(updates.length).toBe(expected.length)
			const seqs = updates.map((m) => m.seq as number)
			expect(seqs).toEqual([...seqs].sort((x, y) => x - y))
		}
		for (const c of [control, alice, bob, ...filtered]) c.close()
	}, 60_000)

	it('resumes by `after` across what its filter dropped, without resync', async () => {
		const filter = { contains: ['wanted'] }
		const alice = await f.connect(f.mallory)
		const send = (text: string) =>
			alice.command({ action: 'send_message', userbot_id: a, chat_id: 1002, text })
		let c = await subscribe(filter)
		await send('wanted first')
		const first = (await c.take((m) => (m as unknown as Frame).type === 'update')) as unknown as Frame
		c.close()
		const control = await subscribe()
		for (let i = 0; i < 20; i++) await send(`dropped ${i}`)
		await send('wanted second')
		await control.take((m) => /wanted second/.test(JSON.stringify(m)))

		c = await subscribe(filter, first.seq)
		await c.take((m) => /wanted second/.test(JSON.stringify(m)))
		await send('wanted third')
		await c.take((m) => /wanted third/.test(JSON.stringify(m)))
		const got = frames(c).filter((m) => m.type === 'update' || m.type === 'resync')
		expect(got.map((m) => m.type)).toEqual(['update', 'update'])
		const seqs = got.map((m) => m.seq as number)
		// The 20 messages between the first and the second were numbered, and dropped: not lost.
		expect((seqs[0] as number) - (first.seq as number)).toBeGreaterThan(20)
		expect(seqs[1]).toBeGreaterThan(seqs[0] as number)
		for (const s of [alice, control, c]) s.close()
	})

	it('refuses a bad filter with subscribe_error in its own words, never quoting it', async () => {
		const c = await f.connect()
		const cases: Array<[unknown, string]> = [
			[{ pattern: '(unclosed SECRET' }, FilterErrors.PATTERN_INVALID],
			[{ pattern: 'SECRET(?=lookahead)' }, FilterErrors.PATTERN_INVALID],
			[{ chat_ids: Array.from({ length: 101 }, (_, i) => i + 1) }, FilterErrors.CHAT_IDS],
			[{ contains: ['SECRET words'] }, FilterErrors.CONTAINS],
			[{ media: ['SECRET'] }, FilterErrors.MEDIA],
			[{ chat_id: 1 }, FilterErrors.UNKNOWN_FIELD],
			['SECRET', FilterErrors.NOT_AN_OBJECT],
		]
		for (const [filter, error] of cases) {
			const reply = await c.command({ action: 'subscribe', userbot_id: b(), filter })
			expect(reply.payload).toMatchObject({ type: 'subscribe_error', error })
			expect(JSON.stringify(reply)).not.toContain('SECRET')
		}
		expect(FilterErrors.PATTERN_INVALID).toBe('filter.pattern is not a valid regular expression (RE2 syntax)')
		c.close()
	})
})
