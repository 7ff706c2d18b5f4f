import { describe, expect, it } from 'bun:test'
import { registerUser } from '../../helpers-ws'
import { consumerState, eventually, expectNoOutboxRows, jetStreamBed, publishSeq, sniffer } from './jetstream'
import { call, insertUserbot, texts } from './receiver'

describe('the JetStream outbox across restarts', () => {
	const bed = jetStreamBed()

	/**
	 * A gateway with an endpoint at `/hook/<name>` and a userbot whose events `<prefix>1..3` are
	 * stored: the first request held at the receiver (caught in flight), the other two waiting
	 * behind it in the stream; then the gateway is halted.
	 */
	async function haltedWithOneHeld(name: string, prefix: string) {
		const first = await bed.gateway()
		const owner = await registerUser(first, `js-${name}@example.com`)
		const made = await call(first, owner.access)('POST', '/api/webhooks/', { url: `${bed.rx.url}/${name}` })
		expect(made.status).toBe(201)
		const { id } = (await made.json()) as { id: number }
		const ub = await insertUserbot(first, owner.companyId)
		const got = () => bed.rx.received.filter((x) => x.path === `/hook/${name}`)
		bed.rx.script(`/hook/${name}`, 'hold')
		for (const n of [1, 2, 3]) publishSeq(first, ub, n, `${prefix}${n}`)
		await bed.rx.until(() => got().length >= 1)
		await eventually(async () => (await consumerState(first, id, ub)).pending === 2)
		await first.halt()
		return { owner, id, ub, got }
	}

	it('loses none of the waiting deliveries when the gateway and nats-server restart', async () => {
		const { id, ub, got } = await haltedWithOneHeld('restart', 'e')
		const heldId = got()[0]?.headers['webhook-id']
		// nats-server killed and started again on its store: the stream and the consumer come back.
		await bed.nats.kill()
		await bed.nats.start()

		const second = await bed.gateway()
		try {
			await bed.rx.until(() => got().length >= 4)
			expect(texts(got())).toEqual(['e1', 'e1', 'e2', 'e3'])
			expect(got()[1]?.headers['webhook-id']).toBe(heldId)
			await eventually(async () => {
				const s = await consumerState(second, id, ub)
				return s.pending === 0 && s.ackPending === 0
			})
			await expectNoOutboxRows(second)
		} finally {
			await second.halt()
		}
	}, 60_000)

	it('gives back, once, what a stopping gateway is sent meanwhile: the next one sends each event once, in order', async () => {
		// The first event caught in flight by the pull the pair began with (a pull lasts 1 s): stopping
		// ends the attempt (the event goes back untried), the stream hands the event to that pull again
		// at once, and the stopping loop gives it back; the others wait behind it in the stream.
		const { owner, id, ub, got } = await haltedWithOneHeld('stopping', 's')
		const own = await sniffer(bed.nats)
		try {
			// Handed out at most twice (the attempt, and the one given back), answered never: nothing
			// more of the pair went to the stopping gateway.
			const stopped = await consumerState(own.jsm, id, ub)
			expect(stopped.delivered).toBeLessThanOrEqual(2)
			expect(stopped.ackFloor).toBe(0)

			const second = await bed.gateway()
			try {
				await bed.rx.until(() => got().length >= 4)
				await eventually(async () => {
					const s = await consumerState(second, id, ub)
					return s.pending === 0 && s.ackPending === 0
				})
				expect(texts(got())).toEqual(['s1', 's1', 's2', 's3'])
				const ids = got().map((x) => x.headers['webhook-id'])
				expect(ids[1]).toBe(ids[0])
				expect(new Set(ids).size).toBe(3)
				// The next gateway took each event once: three more deliveries.
				expect((await consumerState(own.jsm, id, ub)).delivered).toBe(stopped.delivered + 3)
				const list = await call(second, owner.access)('GET', `/api/webhooks/${id}/deliveries/`)
				const rows = (await list.json()) as Array<{ seq: number; status: string; attempts: number }>
				expect(rows.map((r) => [r.seq, r.status, r.attempts]).sort()).toEqual([
					[1, 'delivered', 1],
					[2, 'delivered', 1],
					[3, 'delivered', 1],
				])
				await expectNoOutboxRows(second)
			} finally {
				await second.halt()
			}
		} finally {
			await own.close()
		}
	}, 60_000)

	it('keeps sending once nats-server comes back under a running gateway', async () => {
		const gw = await bed.gateway()
		try {
			const owner = await registerUser(gw, 'js-bounce@example.com')
			const made = await call(gw, owner.access)('POST', '/api/webhooks/', { url: `${bed.rx.url}/bounce` })
			const { id } = (await made.json()) as { id: number }
			const ub = await insertUserbot(gw, owner.companyId)
			const got = () => bed.rx.received.filter((x) => x.path === '/hook/bounce')
			bed.rx.script('/hook/bounce', 'hold')
			for (const n of [1, 2]) publishSeq(gw, ub, n, `b${n}`)
			await bed.rx.until(() => got().length >= 1)
			await eventually(async () => (await consumerState(gw, id, ub)).pending === 1)
			await bed.nats.kill()
			// The held attempt ends while the bus is away: its outcome cannot be acknowledged.
			bed.rx.releaseAll()
			await bed.nats.start()
			await bed.rx.until(() => texts(got()).includes('b2'), 30_000)
			expect(texts(got()).filter((t) => t === 'b2')).toEqual(['b2'])
			expect(texts(got())[0]).toBe('b1')
			expect(texts(got()).at(-1)).toBe('b2')
			await expectNoOutboxRows(gw)
		} finally {
			await gw.halt()
		}
	}, 60_000)

	it('keeps a delivery that failed past WEBHOOK_RETRY_FOR as a dead letter: listed, replayable', async () => {
		const gw = await bed.gateway({ WEBHOOK_RETRY_FOR: '1' })
		try {
			const owner = await registerUser(gw, 'js-dead@example.com')
			const made = await call(gw, owner.access)('POST', '/api/webhooks/', { url: `${bed.rx.url}/dead` })
			const { id } = (await made.json()) as { id: number }
			const ub = await insertUserbot(gw, owner.companyId)
			const got = () => bed.rx.received.filter((x) => x.path === '/hook/dead')
			bed.rx.script('/hook/dead', { status: 500 }, { status: 500 })
			publishSeq(gw, ub, 1, 'd1')
			publishSeq(gw, ub, 2, 'd2')
			await bed.rx.until(() => texts(got()).includes('d2'))
			expect(texts(got())).toEqual(['d1', 'd1', 'd2'])
			const listed = async () => {
				const list = await call(gw, owner.access)('GET', `/api/webhooks/${id}/deliveries/`)
				return (await list.json()) as Array<{ status: string; attempts: number; seq: number }>
			}
			await eventually(
				async () => (await listed()).length === 2 && (await listed())[0]?.status === 'delivered',
			)
			expect((await listed()).map((r) => [r.seq, r.status, r.attempts])).toEqual([
				[2, 'delivered', 1],
				[1, 'failed', 2],
			])
			const failed = await call(gw, owner.access)('GET', `/api/webhooks/${id}/deliveries/?status=failed`)
			expect(((await failed.json()) as unknown[]).length).toBe(1)
			const replay = await call(gw, owner.access)('POST', `/api/webhooks/${id}/replay/`, {})
			expect(await replay.json()).toEqual({ replayed: 2, truncated: false })
			await bed.rx.until(() => got().length >= 5)
			expect(texts(got())).toEqual(['d1', 'd1', 'd2', 'd1', 'd2'])
			await expectNoOutboxRows(gw)
		} finally {
			await gw.halt()
		}
	}, 60_000)

	it('refuses to start, in its own words, when JetStream cannot hold the outbox', async () => {
		// More than nats-server can reserve on this disk: the stream is refused.
		const refused = await bed.gateway({ WEBHOOK_JS_MAX_BYTES: String(2 ** 52) }).then(
			(t) => t.halt().then(() => undefined),
			(err: unknown) => err,
		)
		expect(refused).toBeInstanceOf(Error)
		expect((refused as Error).message).toBe(
			"webhooks: cannot set up the outbox on the bus (stream UBG_WEBHOOKS, bucket ubg-webhooks): check the gateway user's permissions and nats-server's JetStream storage, or set WEBHOOK_OUTBOX=database",
		)
	}, 60_000)
})
