import { beforeAll, describe, expect, it } from 'bun:test'
import { jetstream } from '@nats-io/jetstream'
import { connect } from '@nats-io/transport-node'
import { Webhook } from 'standardwebhooks'
import { createLogger } from '../../../src/common/util/logger'
import { BusCodec } from '../../../src/runtime/bus/codec'
import { BusKey } from '../../../src/runtime/bus/seal'
import { busConfigOf } from '../../bus/nats'
import type { TestInstance } from '../../helpers'
import { registerUser, type TestUser } from '../../helpers-ws'
import {
	consumerState,
	eventually,
	expectNoOutboxRows,
	jetStreamBed,
	publishSeq,
	storedUnder,
} from './jetstream'
import { call, HOOK_ENV, insertUserbot, texts } from './receiver'

describe('webhooks with the outbox in JetStream (two gateways on one bus)', () => {
	const bed = jetStreamBed()
	let a: TestInstance
	let b: TestInstance
	let owner: TestUser
	beforeAll(async () => {
		a = await bed.gateway()
		b = await bed.gateway()
		owner = await registerUser(a, 'js-owner@example.com')
	}, 60_000)

	/** An endpoint on its own path of the receiver, and a userbot of the owner's company. */
	async function endpoint(name: string) {
		const made = await call(a, owner.access)('POST', '/api/webhooks/', { url: `${bed.rx.url}/${name}` })
		expect(made.status).toBe(201)
		const hook = (await made.json()) as { id: number; secret: string }
		const ub = await insertUserbot(a, owner.companyId)
		const got = () => bed.rx.received.filter((x) => x.path === `/hook/${name}`)
		return { ...hook, ub, got, subject: `ubg.wh.${hook.id}.${ub}` }
	}

	it('delivers a signed event from the stream and writes nothing of the outbox to the database', async () => {
		expect(a.ctx.bus).toBeDefined()
		const hook = await endpoint('signed')
		publishSeq(a, hook.ub, 1, 'hello')
		await bed.rx.until(() => hook.got().length >= 1)
		const got = hook.got()[0]
		if (!got) throw new Error('nothing received')
		const verified = new Webhook(hook.secret).verify(got.body, got.headers) as typeof got.json
		expect(verified.type).toBe('updateNewMessage')
		expect(verified.data.userbot_id).toBe(hook.ub)
		expect(verified.data.seq).toBe(1)
		expect(texts([got])).toEqual(['hello'])
		expect(await storedUnder(a, hook.subject)).toBe(1)
		await eventually(async () => (await consumerState(a, hook.id, hook.ub)).ackPending === 0)
		await expectNoOutboxRows(a)
		const list = await call(a, owner.access)('GET', `/api/webhooks/${hook.id}/deliveries/`)
		const rows = (await list.json()) as Array<{ status: string; attempts: number; message_id: string }>
		expect(rows.map((r) => [r.status, r.attempts, r.message_id])).toEqual([
			['delivered', 1, got.headers['webhook-id'] as string],
		])
	}, 30_000)

	it('retries a 500 with the same webhook-id, holds back the later event, and delivers each once', async () => {
		const hook = await endpoint('retry')
		bed.rx.script('/hook/retry', { status: 500 }, { status: 500 })
		publishSeq(a, hook.ub, 1, 'first')
		publishSeq(a, hook.ub, 2, 'second')
		await bed.rx.until(() => hook.got().length >= 4)
		expect(texts(hook.got())).toEqual(['first', 'first', 'first', 'second'])
		const ids = hook.got().map((x) => x.headers['webhook-id'])
		expect(new Set(ids.slice(0, 3)).size).toBe(1)
		expect(ids[3]).not.toBe(ids[0])
		for (const x of hook.got()) new Webhook(hook.secret).verify(x.body, x.headers)
		await eventually(async () => {
			const list = await call(a, owner.access)('GET', `/api/webhooks/${hook.id}/deliveries/`)
			const rows = (await list.json()) as Array<{
				status: string
				attempts: number
				last_response_code: number
			}>
			return JSON.stringify(rows.map((r) => [r.status, r.attempts])) === '[["delivered",1],["delivered",3]]'
		})
		expect(await storedUnder(a, hook.subject)).toBe(2)
		await expectNoOutboxRows(a)
	}, 30_000)

	it('stores an event seen by two gateways once and delivers it once', async () => {
		const hook = await endpoint('twice')
		for (const [seq, text] of [
			[1, 'one'],
			[2, 'two'],
			[3, 'three'],
		] as const) {
			publishSeq(a, hook.ub, seq, text)
			publishSeq(b, hook.ub, seq, text)
		}
		await bed.rx.until(() => hook.got().length >= 3)
		await eventually(async () => {
			const s = await consumerState(b, hook.id, hook.ub)
			return s.pending === 0 && s.ackPending === 0
		})
		expect(texts(hook.got())).toEqual(['one', 'two', 'three'])
		expect(await storedUnder(b, hook.subject)).toBe(3)
		expect((await consumerState(b, hook.id, hook.ub)).redelivered).toBe(0)
		await expectNoOutboxRows(b)
	}, 30_000)

	it('replays after a seq exactly the stored events after it, with their webhook-ids', async () => {
		const hook = await endpoint('replay')
		for (let seq = 1; seq <= 4; seq++) publishSeq(a, hook.ub, seq, `r${seq}`)
		await bed.rx.until(() => hook.got().length >= 4)
		const first = hook.got().map((x) => x.headers['webhook-id'])
		const replay = await call(b, owner.access)('POST', `/api/webhooks/${hook.id}/replay/`, { after_seq: 2 })
		expect(replay.status).toBe(202)
		expect(await replay.json()).toEqual({ replayed: 2, truncated: false })
		await bed.rx.until(() => hook.got().length >= 6)
		await eventually(async () => {
			const s = await consumerState(a, hook.id, hook.ub)
			return s.pending === 0 && s.ackPending === 0
		})
		expect(texts(hook.got())).toEqual(['r1', 'r2', 'r3', 'r4', 'r3', 'r4'])
		expect(hook.got().map((x) => x.headers['webhook-id'])).toEqual([...first, first[2], first[3]])
		// The originals and the two copies; a second replay would copy the originals alone.
		expect(await storedUnder(a, hook.subject)).toBe(6)
		await expectNoOutboxRows(a)
	}, 30_000)

	it('answers the test event from the stream', async () => {
		const hook = await endpoint('test-event')
		const sent = await call(a, owner.access)('POST', `/api/webhooks/${hook.id}/test/`)
		expect(sent.status).toBe(202)
		const { message_id } = (await sent.json()) as { message_id: string }
		await bed.rx.until(() => hook.got().length >= 1)
		const got = hook.got()[0]
		expect(got?.json.type).toBe('webhook.test')
		expect(got?.headers['webhook-id']).toBe(message_id)
		await expectNoOutboxRows(a)
	}, 30_000)

	it('refuses what it reads from the stream unsealed, forged, moved from another pair or misshapen', async () => {
		const hook = await endpoint('hostile')
		publishSeq(a, hook.ub, 1, 'before')
		await bed.rx.until(() => hook.got().length >= 1)
		const sniffer = busConfigOf(bed.nats.urlFor('sniffer'))
		const auth = sniffer.auth as { user: string; pass: string }
		const nc = await connect({ servers: sniffer.servers, user: auth.user, pass: auth.pass })
		try {
			const js = jetstream(nc)
			const codec = new BusCodec(
				BusKey.fromDataKey(a.ctx.config.secrets.dataKey),
				'intruder',
				createLogger('silent'),
			)
			const forged = {
				endpoint_id: hook.id,
				company_id: owner.companyId,
				userbot_id: hook.ub,
				seq: 9,
				type: 'updateNewMessage',
				data: JSON.stringify({ userbot_id: hook.ub, seq: 9, update: { _: 'updateNewMessage' } }),
				at: Date.now(),
				message_id: 'msg_forged',
			}
			// Not sealed at all; sealed for another pair's subject; sealed here but naming another userbot;
			// sealed here with a field too many.
			await js.publish(hook.subject, new TextEncoder().encode(JSON.stringify(forged)))
			await js.publish(hook.subject, codec.seal(`ubg.wh.${hook.id}.999`, forged))
			await js.publish(hook.subject, codec.seal(hook.subject, { ...forged, userbot_id: hook.ub + 1 }))
			await js.publish(hook.subject, codec.seal(hook.subject, { ...forged, extra: 1 }))
		} finally {
			await nc.close()
		}
		publishSeq(a, hook.ub, 2, 'after')
		await bed.rx.until(() => hook.got().length >= 2)
		await eventually(async () => {
			const s = await consumerState(a, hook.id, hook.ub)
			return s.pending === 0 && s.ackPending === 0
		})
		expect(texts(hook.got())).toEqual(['before', 'after'])
		expect(await storedUnder(a, hook.subject)).toBe(6)
	}, 30_000)

	/** The endpoint's deliveries as listed: `[seq, status, attempts]`, in the order of the events. */
	async function listed(id: number) {
		const list = await call(a, owner.access)('GET', `/api/webhooks/${id}/deliveries/`)
		const rows = (await list.json()) as Array<{ seq: number; status: string; attempts: number }>
		return rows.map((r) => [r.seq, r.status, r.attempts]).sort((x, y) => Number(x[0]) - Number(y[0]))
	}

	/**
	 * `count` events of a new pair, the first caught in flight (the receiver holds it) and the others
	 * stored behind it; `change` is made while it is held, and the held request is let go only once
	 * WEBHOOK_POLL has passed since (the longest a loop goes on with an endpoint it read before), so
	 * every read of the endpoint from then on sees the change. The pair began with these events and a
	 * pull lasts 1 s: the pull that carried the first is still open, as is the other gateway's (whose
	 * loop reads the endpoint again only when its pull is over), and the stream hands one of them the
	 * second once the first is answered.
	 */
	async function changedWhileHeld(name: string, count: number, change: (id: number) => Promise<Response>) {
		const hook = await endpoint(name)
		bed.rx.script(`/hook/${name}`, 'hold')
		for (let n = 1; n <= count; n++) publishSeq(a, hook.ub, n, `${name}${n}`)
		await bed.rx.until(() => hook.got().length >= 1)
		// Stored, and both gateways pulling: the pull that carried the first event, and the other's.
		await eventually(async () => {
			const s = await consumerState(a, hook.id, hook.ub)
			return (await storedUnder(a, hook.subject)) === count && s.pending === count - 1 && s.waiting === 2
		})
		expect((await change(hook.id)).status).toBeLessThan(300)
		// Not a race: a cached endpoint is read again once it is WEBHOOK_POLL old (index.ts).
		await Bun.sleep(2 * Number(HOOK_ENV.WEBHOOK_POLL))
		bed.rx.releaseAll()
		return hook
	}

	it('gives back the event that comes for an endpoint disabled meanwhile, and sends it once enabled again', async () => {
		const hook = await changedWhileHeld('disabled', 5, (id) =>
			call(a, owner.access)('PATCH', `/api/webhooks/${id}/`, { enabled: false }),
		)
		// The held event answered and acknowledged, the second handed out (two deliveries), and every
		// pull over: nothing more can be handed out while the endpoint is off.
		await eventually(async () => {
			const s = await consumerState(a, hook.id, hook.ub)
			return s.delivered >= 2 && s.waiting === 0
		})
		expect(texts(hook.got())).toEqual(['disabled1'])
		// The second given back, not acknowledged: only the first was answered, three wait behind it.
		const given = await consumerState(a, hook.id, hook.ub)
		expect([given.ackFloor, given.pending]).toEqual([1, 3])
		// Given back untried: no attempt, no outcome.
		expect(await listed(hook.id)).toEqual([[1, 'delivered', 1]])

		const enabled = await call(a, owner.access)('PATCH', `/api/webhooks/${hook.id}/`, { enabled: true })
		expect(enabled.status).toBe(200)
		await bed.rx.until(() => hook.got().length >= 5)
		await eventually(async () => {
			const s = await consumerState(b, hook.id, hook.ub)
			return s.pending === 0 && s.ackPending === 0
		})
		expect(texts(hook.got())).toEqual(['disabled1', 'disabled2', 'disabled3', 'disabled4', 'disabled5'])
		expect(new Set(hook.got().map((x) => x.headers['webhook-id'])).size).toBe(5)
		expect(await listed(hook.id)).toEqual([1, 2, 3, 4, 5].map((seq) => [seq, 'delivered', 1]))
		await expectNoOutboxRows(a)
	}, 30_000)

	it('gives back the event that comes for an endpoint deleted meanwhile, sends nothing more, drops the pair', async () => {
		const hook = await changedWhileHeld('removed', 3, (id) =>
			call(a, owner.access)('DELETE', `/api/webhooks/${id}/`),
		)
		await eventually(() =>
			consumerState(b, hook.id, hook.ub).then(
				() => false,
				() => true,
			),
		)
		expect(texts(hook.got())).toEqual(['removed1'])
		expect(await storedUnder(a, hook.subject)).toBe(3)
	}, 30_000)

	it('drops the pair consumer of a deleted endpoint', async () => {
		const hook = await endpoint('deleted')
		publishSeq(a, hook.ub, 1, 'last')
		await bed.rx.until(() => hook.got().length >= 1)
		await eventually(async () => (await consumerState(b, hook.id, hook.ub)).ackPending === 0)
		const gone = await call(a, owner.access)('DELETE', `/api/webhooks/${hook.id}/`)
		expect(gone.status).toBe(204)
		await eventually(() =>
			consumerState(b, hook.id, hook.ub).then(
				() => false,
				() => true,
			),
		)
		expect(texts(hook.got())).toEqual(['last'])
	}, 30_000)
})
