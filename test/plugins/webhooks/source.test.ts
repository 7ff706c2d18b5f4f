import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AppContext, ObservedEvent } from 'userbot-gateway/plugin'
import { type DatabaseHandle, openDatabase } from '../../../db/client'
import { company } from '../../../db/schema'
import type { EventRow } from '../../../plugins/webhooks/outbox'
import { EventSource } from '../../../plugins/webhooks/source'
import { webhookEndpoint } from '../../../plugins/webhooks/tables'

/**
 * The events the update hub hands to the webhooks (plugins/webhooks/source.ts): those of one turn
 * are stored in one write, in the order they came, each with the endpoints of its company that want
 * it; the userbots and companies of a turn are looked up once each, not once per event.
 */
describe('the webhook event source', () => {
	let dir: string
	let h: DatabaseHandle
	const companies: number[] = []
	const endpoints: number[] = []
	beforeAll(async () => {
		dir = mkdtempSync(join(tmpdir(), 'ubg-hook-source-'))
		h = await openDatabase(`file:${join(dir, 'app.db')}`)
		for (const name of ['one', 'two']) {
			const [c] = await h.db.insert(company).values({ name }).returning()
			companies.push((c as { id: number }).id)
		}
		// Company one: an endpoint for new messages of every userbot, one for userbot 2's edits only.
		// Company two: one for everything it names.
		const rows = [
			{ companyId: companies[0] as number, events: '["updateNewMessage"]', userbotIds: null },
			{ companyId: companies[0] as number, events: '["updateMessageEdited"]', userbotIds: '[2]' },
			{
				companyId: companies[1] as number,
				events: '["updateNewMessage","updateMessageEdited"]',
				userbotIds: null,
			},
		]
		for (const row of rows) {
			const [e] = await h.db
				.insert(webhookEndpoint)
				.values({ ...row, url: 'https://93.184.216.34/', secret: 'v1.x.y' })
				.returning()
			endpoints.push((e as { id: number }).id)
		}
	})
	afterAll(() => {
		h.close()
		rmSync(dir, { recursive: true, force: true })
	})

	it('stores a turn of events in order with the endpoints that want them, each userbot looked up once', async () => {
		// Userbots 1 and 2 are company one's, 3 company two's, 4 is gone.
		const owners = new Map([
			[1, companies[0] as number],
			[2, companies[0] as number],
			[3, companies[1] as number],
		])
		const lookups: number[] = []
		const ctx = {
			userbots: {
				lookup: async (id: number) => {
					lookups.push(id)
					const companyId = owners.get(id)
					return companyId === undefined ? null : { id, companyId }
				},
			},
			config: {},
			db: h.db,
			log: { info() {}, warn() {}, error() {}, debug() {} },
		} as unknown as AppContext
		const stored: EventRow[][] = []
		const source = new EventSource({
			ctx,
			store: {
				recordMany: async (rows) => {
					stored.push([...rows])
				},
			},
			now: () => 5000,
			cacheMs: 60_000,
		})
		const sent: ObservedEvent[] = []
		for (let seq = 1; seq <= 40; seq++) {
			const userbotId = (seq % 4) + 1
			const kind = seq % 5 === 0 ? 'updateMessageEdited' : 'updateNewMessage'
			sent.push({ userbotId, seq, kind, data: { _: kind, n: seq }, live: true })
		}
		for (const event of sent) source.handle(event)
		await source.close()

		expect(stored.length).toBe(1)
		const wanted = (e: ObservedEvent): number[] => {
			const companyId = owners.get(e.userbotId)
			if (companyId === companies[1]) return [endpoints[2] as number]
			if (companyId === undefined) return []
			if (e.kind === 'updateNewMessage') return [endpoints[0] as number]
			return e.userbotId === 2 ? [endpoints[1] as number] : []
		}
		const expected = sent.filter((e) => wanted(e).length > 0)
		expect(
			stored[0]?.map((r) => [r.event.userbotId, r.event.seq, r.event.companyId, [...r.endpointIds]]),
		).toEqual(expected.map((e) => [e.userbotId, e.seq, owners.get(e.userbotId) as number, wanted(e)]))
		expect(stored[0]?.[0]?.event.data).toBe(
			'{"userbot_id":2,"seq":1,"update":{"_":"updateNewMessage","n":1}}',
		)
		// Once per userbot of the turn (4 of them), not once per event (40).
		expect(lookups.sort()).toEqual([1, 2, 3, 4])
	})
})
