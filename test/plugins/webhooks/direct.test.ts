import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { type DatabaseHandle, openDatabase } from '../../../db/client'
import { company } from '../../../db/schema'
import { Deliverer } from '../../../plugins/webhooks/deliver'
import type { EventRow } from '../../../plugins/webhooks/outbox'
import { generateSecret, sealSecret } from '../../../plugins/webhooks/secrets'
import { WEBHOOK_SETTINGS } from '../../../plugins/webhooks/settings'
import { WebhookStore } from '../../../plugins/webhooks/store'
import { webhookDelivery, webhookEndpoint } from '../../../plugins/webhooks/tables'
import { OutboxWriter } from '../../../plugins/webhooks/writer'
import { createLogger } from '../../../src/common/util/logger'
import { loadConfig } from '../../../src/server/config'

/**
 * Deliveries stored already leased to the gateway that stores them, and sent from memory (no claim):
 * only when the pair has nothing pending before them, never past a failing event, and never lost
 * when that gateway dies between the store and the send. Both ways of writing: on the event loop
 * (a libSQL server) and on the writer thread (the embedded database, writer.ts).
 */
describe.each([
	['on the event loop', false],
	['on the writer thread', true],
])('deliveries sent from memory by the gateway that stores them, written %s', (_, threaded) => {
	let dir: string
	let h: DatabaseHandle
	let store: WebhookStore
	let writer: OutboxWriter | undefined
	let companyId: number
	let endpointId: number
	let server: ReturnType<typeof Bun.serve>
	/** What the receiver got: `<userbot>:<text>`, in arrival order. */
	const got: string[] = []
	/** Userbots whose events the receiver answers with 500. */
	const failing = new Set<number>()
	let clock = 1_000_000
	const dataKey = Buffer.alloc(32, 7).toString('base64url')
	const env = {
		DATA_DIR: mkdtempSync(join(tmpdir(), 'ubg-direct-config-')),
		WEBHOOK_ALLOW_HTTP: 'true',
		WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
		WEBHOOK_POLL: '60000',
	}
	const config = WEBHOOK_SETTINGS.read(env, {}, { bus: loadConfig(env).bus })
	const deliverers: Deliverer[] = []
	/** A deliverer of this gateway's clock and receiver, on `on` (the store, or a view of it). */
	const deliverer = (on: WebhookStore = store) => {
		const d = new Deliverer({
			store: on,
			config,
			dataKey,
			log: createLogger('error'),
			now: () => clock,
			random: () => 0.99,
			lookup: async () => [{ address: '127.0.0.1', family: 4 }],
			onDisabled() {},
		})
		deliverers.push(d)
		return d
	}
	let seq = 0
	const events = (userbotId: number, ...texts: string[]): EventRow[] =>
		texts.map((text) => {
			seq++
			return {
				event: {
					companyId,
					userbotId,
					seq,
					type: 'updateNewMessage',
					data: JSON.stringify({ userbot_id: userbotId, seq, text }),
					dedupeKey: `direct:${seq}`,
					at: clock,
				},
				endpointIds: [endpointId],
			}
		})
	const until = async (pred: () => boolean | Promise<boolean>) => {
		for (let i = 0; i < 1000 && !(await pred()); i++) await Bun.sleep(10)
		expect(await pred()).toBe(true)
	}
	const rowsOf = (userbotId: number) =>
		h.db
			.select()
			.from(webhookDelivery)
			.where(eq(webhookDelivery.userbotId, userbotId))
			.orderBy(webhookDelivery.id)
	const of = (userbotId: number) => got.filter((g) => g.startsWith(`${userbotId}:`))

	beforeAll(async () => {
		server = Bun.serve({
			hostname: '127.0.0.1',
			port: 0,
			async fetch(request) {
				const { data } = (await request.json()) as { data: { userbot_id: number; text: string } }
				if (failing.has(data.userbot_id)) return new Response('no', { status: 500 })
				got.push(`${data.userbot_id}:${data.text}`)
				return new Response('ok')
			},
		})
		dir = mkdtempSync(join(tmpdir(), 'ubg-hook-direct-'))
		h = await openDatabase(`file:${join(dir, 'app.db')}`)
		const [c] = await h.db.insert(company).values({ name: 'direct' }).returning()
		companyId = (c as { id: number }).id
		const [e] = await h.db
			.insert(webhookEndpoint)
			.values({ companyId, url: `http://127.0.0.1:${server.port}/hook`, events: '[]', secret: 'v1.x.y' })
			.returning()
		endpointId = (e as { id: number }).id
		const secret = await sealSecret(dataKey, endpointId, generateSecret())
		await h.db.update(webhookEndpoint).set({ secret }).where(eq(webhookEndpoint.id, endpointId))
		writer = threaded ? new OutboxWriter(join(dir, 'app.db'), 5000) : undefined
		store = new WebhookStore(h.db, writer)
	})
	afterAll(async () => {
		for (const d of deliverers) await d.close()
		// Every write went to the thread: it never fell back.
		if (writer) expect(writer.usable).toBe(true)
		await store.close()
		server.stop(true)
		h.close()
		rmSync(dir, { recursive: true, force: true })
	})

	it('sends the events of a pair with nothing pending without a claim, in order', async () => {
		let claims = 0
		const counting = new Proxy(store, {
			get(target, prop, receiver) {
				if (prop === 'claim') {
					claims++
				}
				return Reflect.get(target, prop, receiver)
			},
		})
		const d = deliverer(counting)
		// Not started: no poll, so only what `record` sends itself can arrive.
		await d.record([...events(101, 'a1', 'a2'), ...events(102, 'b1'), ...events(101, 'a3')])
		// Stored leased to this gateway already.
		expect((await rowsOf(101)).map((r) => r.leaseOwner)).toEqual([d.owner, d.owner, d.owner])
		await until(() => of(101).length === 3 && of(102).length === 1)
		expect(of(101)).toEqual(['101:a1', '101:a2', '101:a3'])
		expect(claims).toBe(0)
		// The next event of a pair whose deliveries are all written goes the same way.
		await until(async () => (await rowsOf(101)).every((r) => r.status === 'delivered'))
		await d.record(events(101, 'a4'))
		await until(() => of(101).length === 4)
		expect(of(101)).toEqual(['101:a1', '101:a2', '101:a3', '101:a4'])
		expect(claims).toBe(0)
		await d.close()
	})

	it('holds back only the failing userbot of a batch, and stores its later events for a claim', async () => {
		const d = deliverer()
		failing.add(201)
		await d.record([...events(201, 'x1', 'x2'), ...events(202, 'y1', 'y2'), ...events(201, 'x3')])
		await until(() => of(202).length === 2)
		expect(of(202)).toEqual(['202:y1', '202:y2'])
		await until(async () => (await rowsOf(201))[0]?.attempts === 1)
		// x1 failed and waits for its retry; x2 and x3 were given back, untried.
		await until(async () => (await rowsOf(201)).every((r) => r.leaseOwner === null))
		const before = await rowsOf(201)
		expect(before.map((r) => [r.status, r.attempts])).toEqual([
			['pending', 1],
			['pending', 0],
			['pending', 0],
		])
		// A later event of that userbot is stored behind them, not leased and not sent ahead.
		await d.record(events(201, 'x4'))
		expect((await rowsOf(201)).map((r) => r.leaseOwner)).toEqual([null, null, null, null])
		// Another userbot of the same batch size keeps going meanwhile.
		await d.record(events(202, 'y3'))
		await until(() => of(202).length === 3)
		expect(of(201)).toEqual([])
		// Once the receiver answers and the retry is due, all of them, in order.
		failing.delete(201)
		clock += 60 * 60_000
		d.kick()
		await until(() => of(201).length === 4)
		expect(of(201)).toEqual(['201:x1', '201:x2', '201:x3', '201:x4'])
		await d.close()
	})

	it('loses nothing when the gateway dies between the store and the send: another sends it after the lease', async () => {
		// A gateway stored three events leased to itself, and died before sending any.
		const dead = `gw-${crypto.randomUUID()}`
		const leaseMs = config.timeoutMs + 30_000
		const recorded = await store.recordMany(events(301, 'z1', 'z2', 'z3'), {
			owner: dead,
			until: clock + leaseMs,
			after: () => 0,
		})
		expect(recorded.leased.length).toBe(3)
		const rows = await rowsOf(301)
		expect(rows.map((r) => [r.status, r.leaseOwner])).toEqual([
			['pending', dead],
			['pending', dead],
			['pending', dead],
		])
		// The next start, once the dead gateway's leases have ended, sends them all in order.
		clock += leaseMs + 1
		const next = deliverer()
		next.start()
		await until(() => of(301).length === 3)
		expect(of(301)).toEqual(['301:z1', '301:z2', '301:z3'])
		await until(async () => (await rowsOf(301)).every((r) => r.status === 'delivered'))
		await next.close()
	})
})
