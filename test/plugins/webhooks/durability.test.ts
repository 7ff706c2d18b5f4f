import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { webhooks } from '../../../plugins/webhooks'
import { webhookDelivery } from '../../../plugins/webhooks/tables'
import { builtInPlugins } from '../../../src/app'
import { getTestInstance, type TestInstance } from '../../helpers'
import { connectWs, registerUser } from '../../helpers-ws'
import { call, HOOK_ENV, insertUserbot, publish, type Receiver, startReceiver, texts } from './receiver'

describe('webhooks across a restart', () => {
	let rx: Receiver
	let dataDir: string
	beforeAll(() => {
		rx = startReceiver()
		dataDir = mkdtempSync(join(tmpdir(), 'ubg-hooks-'))
	})
	afterAll(() => {
		rx.stop()
		rmSync(dataDir, { recursive: true, force: true })
	})

	it('loses none of the deliveries waiting when the server stops, and sends them in order after', async () => {
		const first = await getTestInstance(HOOK_ENV, { dataDir })
		const owner = await registerUser(first, 'restart-owner@example.com')
		const made = await call(first, owner.access)('POST', '/api/webhooks/', { url: `${rx.url}/restart` })
		expect(made.status).toBe(201)
		const ub = await insertUserbot(first, owner.companyId)
		// The first request is caught in flight; the others wait behind it in the outbox.
		rx.script('/hook/restart', 'hold')
		for (const n of [1, 2, 3]) publish(first, ub, `e${n}`)
		await rx.until((r) => r.some((x) => x.path === '/hook/restart'))
		const stored = async (t: TestInstance) =>
			(await t.ctx.db.select().from(webhookDelivery).where(eq(webhookDelivery.userbotId, ub))).length
		for (let i = 0; i < 500 && (await stored(first)) < 3; i++) await Bun.sleep(10)
		expect(await stored(first)).toBe(3)
		await first.halt()
		const heldId = rx.received.find((x) => x.path === '/hook/restart')?.headers['webhook-id']

		const second = await getTestInstance(HOOK_ENV, { dataDir })
		try {
			const got = () => rx.received.filter((x) => x.path === '/hook/restart')
			await rx.until(() => got().length >= 4)
			expect(texts(got())).toEqual(['e1', 'e1', 'e2', 'e3'])
			expect(got()[1]?.headers['webhook-id']).toBe(heldId)
			const rows = await second.ctx.db.select().from(webhookDelivery).where(eq(webhookDelivery.userbotId, ub))
			for (let i = 0; i < 500 && rows.some((r) => r.status !== 'delivered'); i++) {
				await Bun.sleep(10)
				rows.splice(0, rows.length, ...(await second.ctx.db.select().from(webhookDelivery)))
			}
			expect(rows.map((r) => r.status)).toEqual(['delivered', 'delivered', 'delivered'])
		} finally {
			await second.halt()
		}
	}, 30_000)
})

describe('webhook retries on a clock of the test', () => {
	let t: TestInstance
	let rx: Receiver
	let clock = Date.parse('2026-01-01T00:00:00Z')
	const HOUR = 3600_000
	beforeAll(async () => {
		rx = startReceiver()
		const plugins = [
			...builtInPlugins.filter((p) => p.id !== 'webhooks'),
			webhooks({ now: () => clock, random: () => 0.5 }),
		]
		t = await getTestInstance(
			{
				...HOOK_ENV,
				WEBHOOK_RETRY_BASE: '5000',
				WEBHOOK_RETRY_CAP: String(HOUR),
				WEBHOOK_RETRY_FOR: String(HOUR),
				WEBHOOK_DISABLE_AFTER: String(2 * HOUR),
			},
			{ plugins },
		)
	})
	afterAll(async () => {
		rx.stop()
		await t.stop()
	})

	const setup = async (email: string, path: string) => {
		const owner = await registerUser(t, email)
		const as = call(t, owner.access)
		const ub = await insertUserbot(t, owner.companyId)
		const made = await as('POST', '/api/webhooks/', { url: `${rx.url}/${path}`, userbot_ids: [ub] })
		const { id } = (await made.json()) as { id: number }
		const deliveries = async () =>
			(await (await as('GET', `/api/webhooks/${id}/deliveries/`)).json()) as Array<Record<string, unknown>>
		/** Waits until the deliveries listing satisfies `pred`. */
		const until = async (pred: (d: Array<Record<string, unknown>>) => boolean) => {
			for (let i = 0; i < 1000 && !pred(await deliveries()); i++) await Bun.sleep(10)
			expect(pred(await deliveries())).toBe(true)
		}
		const got = () => rx.received.filter((x) => x.path === `/hook/${path}`)
		return { owner, as, ub, id, deliveries, until, got }
	}

	it('waits as Retry-After says on 429 and 503, and backs off with full jitter otherwise', async () => {
		const s = await setup('clock-1@example.com', 'later')
		const at = new Date(clock + 30 * 60_000).toUTCString()
		rx.script(
			'/hook/later',
			{ status: 429, headers: { 'retry-after': '120' } },
			{ status: 503, headers: { 'retry-after': at } },
			{ status: 500 },
			{ status: 500 },
		)
		publish(t, s.ub, 'patience')
		const start = clock
		await s.until((d) => d[0]?.attempts === 1)
		expect(Date.parse((await s.deliveries())[0]?.next_attempt_at as string)).toBe(start + 120_000)
		clock += 120_000
		await s.until((d) => d[0]?.attempts === 2)
		expect(Date.parse((await s.deliveries())[0]?.next_attempt_at as string)).toBe(start + 30 * 60_000)
		clock = start + 30 * 60_000
		await s.until((d) => d[0]?.attempts === 3)
		// Third failure: uniform in [0, 5 s * 2^2], and the test's random() is 0.5.
		expect(Date.parse((await s.deliveries())[0]?.next_attempt_at as string)).toBe(clock + 10_000)
		clock += 10_000
		await s.until((d) => d[0]?.attempts === 4)
		expect(Date.parse((await s.deliveries())[0]?.next_attempt_at as string)).toBe(clock + 20_000)
		clock += 20_000
		await s.until((d) => d[0]?.status === 'delivered')
		expect(s.got().length).toBe(5)
	})

	it('gives up after WEBHOOK_RETRY_FOR, keeps the dead letter, lets the next event go, and replays it', async () => {
		const s = await setup('clock-2@example.com', 'dead')
		rx.script('/hook/dead', { status: 500 }, { status: 500 })
		publish(t, s.ub, 'doomed')
		publish(t, s.ub, 'next')
		await s.until((d) => d.length === 2 && d[1]?.attempts === 1)
		expect(texts(s.got())).toEqual(['doomed'])
		clock += 1.5 * HOUR
		await s.until((d) => d[0]?.status === 'delivered')
		const [next, doomed] = await s.deliveries()
		expect(doomed).toMatchObject({ status: 'failed', attempts: 2, last_response_code: 500 })
		expect(next).toMatchObject({ status: 'delivered', attempts: 1 })
		expect(texts(s.got())).toEqual(['doomed', 'doomed', 'next'])
		const replay = await s.as('POST', `/api/webhooks/${s.id}/replay/`, {})
		expect(await replay.json()).toEqual({ replayed: 2, truncated: false })
		await rx.until(() => s.got().length === 5)
		expect(texts(s.got()).slice(3)).toEqual(['doomed', 'next'])
		expect((await s.as('GET', `/api/webhooks/${s.id}/`)).status).toBe(200)
	})

	it('disables an endpoint failing for WEBHOOK_DISABLE_AFTER and tells the company', async () => {
		const s = await setup('clock-3@example.com', 'down')
		const ws = await connectWs(t.url, { bearer: s.owner.access })
		rx.script('/hook/down', { status: 500 }, { status: 500 }, { status: 500 })
		publish(t, s.ub, 'one')
		await s.until((d) => d[0]?.attempts === 1)
		clock += 40 * 60_000
		await s.until((d) => d[0]?.attempts === 2)
		let shown = (await (await s.as('GET', `/api/webhooks/${s.id}/`)).json()) as Record<string, unknown>
		expect(shown.enabled).toBe(true)
		clock += 90 * 60_000
		await s.until((d) => d[0]?.attempts === 3)
		shown = (await (await s.as('GET', `/api/webhooks/${s.id}/`)).json()) as Record<string, unknown>
		expect(shown).toMatchObject({ enabled: false, disabled_at: new Date(clock).toISOString() })
		const told = await ws.take((m) => (m.payload as { type?: string }).type === 'webhook_disabled')
		expect(told).toMatchObject({ payload: { result: { webhook_id: s.id } } })
		ws.close()
	})
})
