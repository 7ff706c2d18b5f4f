import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { SEED_CHATS } from '../../../src/emulator'
import { FilterErrors } from '../../../src/server/updates/filter'
import { createLoggedInUserbot, createMessagingFixture, type MessagingFixture } from '../../helpers-ws'
import { ALICE, type Planned, plan, sendAll, tagOf } from '../../updates/mixed-stream'
import { call, HOOK_ENV, type Receiver, startReceiver } from './receiver'

/**
 * Issue 46 on a webhook endpoint: its `filter` (the subscriptions' object) is checked whole on
 * create and PATCH, answered on read, and decides which events are stored for it: out of a mixed
 * stream of 200 messages on the emulator, the endpoint gets exactly those it passes, in order.
 */
const { supergroup } = SEED_CHATS

describe('webhook filters', () => {
	let f: MessagingFixture
	let rx: Receiver
	let a: number
	const owner = () => call(f.t, f.alice.access)

	beforeAll(async () => {
		f = await createMessagingFixture(HOOK_ENV)
		a = await createLoggedInUserbot(f.t, f.mallory.companyId, '9996611111')
		rx = startReceiver()
	})
	afterAll(async () => {
		rx.stop()
		await f.stop()
	})

	let paths = 0
	const create = async (body: Record<string, unknown>) => {
		const path = `/hook/${++paths}`
		const res = await owner()('POST', '/api/webhooks/', {
			url: `${rx.url}/${paths}`,
			events: ['updateNewMessage'],
			userbot_ids: [f.userbotId],
			...body,
		})
		expect(res.status).toBe(201)
		const hook = (await res.json()) as { id: number; filter: unknown }
		return { ...hook, path, got: () => rx.received.filter((r) => r.path === path) }
	}

	it('delivers exactly the messages its filter passes out of 200, in order', async () => {
		const filter = {
			chat_ids: [ALICE, supergroup],
			media: ['text', 'photo'],
			contains: ['urgent', 'Invoice'],
		}
		const wants = (m: Planned) =>
			[ALICE, supergroup].includes(m.bobChat) &&
			['text', 'photo'].includes(m.media) &&
			/\b(urgent|invoice)\b/i.test(m.text)
		const hook = await create({ filter })
		expect(hook.filter).toEqual(filter)
		// Another endpoint with no filter: the whole stream, to know when all of it went by.
		const all = await create({})
		expect(all.filter).toBeNull()
		const messages = plan()
		const alice = await f.connect(f.mallory)
		const bob = await f.connect()
		await sendAll(messages, { alice, bob }, { alice: a, bob: f.userbotId })

		await rx.until(() => all.got().some((r) => tagOf({ type: 'update', ...r.json.data }) === 'm199'), 30_000)
		const order = all.got().flatMap((r) => tagOf({ type: 'update', ...r.json.data }) ?? [])
		expect([...order].sort()).toEqual(messages.map((m) => m.tag).sort())
		const expected = order.filter((tag) => wants(messages[Number(tag.slice(1))] as Planned))
		expect(expected.length).toBeGreaterThan(2)
		expect(expected.length).toBeLessThan(100)
		// One endpoint's events go out in order: once the last it should get is in, nothing else can come.
		await rx.until(() =>
			hook.got().some((r) => tagOf({ type: 'update', ...r.json.data }) === expected.at(-1)),
		)
		const got = hook.got()
		expect(got.map((r) => tagOf({ type: 'update', ...r.json.data }))).toEqual(expected)
		expect(got.every((r) => r.json.type === 'updateNewMessage')).toBe(true)
		// The numbers are the userbot's: gaps where the filter dropped, never renumbered.
		const seqs = got.map((r) => r.json.data.seq)
		expect(seqs).toEqual([...seqs].sort((x, y) => x - y))
		expect((seqs.at(-1) as number) - (seqs[0] as number)).toBeGreaterThan(got.length)
		alice.close()
		bob.close()
	}, 60_000)

	it('checks the filter whole on create and PATCH, in its own words, never quoting it', async () => {
		const cases: Array<[unknown, string]> = [
			[{ pattern: '(SECRET' }, FilterErrors.PATTERN_INVALID],
			[{ sender_ids: Array.from({ length: 101 }, (_, i) => i + 1) }, FilterErrors.SENDER_IDS],
			[{ outgoing: 'SECRET' }, FilterErrors.OUTGOING],
			[{ SECRET: true }, FilterErrors.UNKNOWN_FIELD],
			['SECRET', FilterErrors.NOT_AN_OBJECT],
		]
		for (const [filter, error] of cases) {
			const res = await owner()('POST', '/api/webhooks/', { url: `${rx.url}/bad`, filter })
			expect(res.status).toBe(400)
			const text = await res.text()
			expect(JSON.parse(text)).toEqual({ filter: [error] })
			expect(text).not.toContain('SECRET')
		}
		const hook = await create({ filter: { outgoing: true } })
		const patch = (body: unknown) => owner()('PATCH', `/api/webhooks/${hook.id}/`, body)
		const bad = await patch({ filter: { pattern: 'SECRET(?<=x)' } })
		expect(bad.status).toBe(400)
		expect(await bad.json()).toEqual({ filter: [FilterErrors.PATTERN_INVALID] })
		const read = async () =>
			((await (await owner()('GET', `/api/webhooks/${hook.id}/`)).json()) as { filter: unknown }).filter
		expect(await read()).toEqual({ outgoing: true })
		expect((await patch({ filter: { media: ['voice'], pattern: '(?i)^hi' } })).status).toBe(200)
		expect(await read()).toEqual({ media: ['voice'], pattern: '(?i)^hi' })
		// A change of something else leaves it; null, or {}, takes it away.
		expect((await patch({ description: 'x' })).status).toBe(200)
		expect(await read()).toEqual({ media: ['voice'], pattern: '(?i)^hi' })
		expect((await patch({ filter: {} })).status).toBe(200)
		expect(await read()).toBeNull()
		expect((await patch({ filter: { outgoing: false } })).status).toBe(200)
		expect((await patch({ filter: null })).status).toBe(200)
		expect(await read()).toBeNull()
	})
})
