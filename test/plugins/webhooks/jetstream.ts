import { afterAll, beforeAll, expect } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type JetStreamManager, jetstreamManager } from '@nats-io/jetstream'
import { connect } from '@nats-io/transport-node'
import { WEBHOOKS_STREAM } from '../../../plugins/webhooks/jetstream/messages'
import { webhookDelivery, webhookEvent } from '../../../plugins/webhooks/tables'
import { busConfigOf, type NatsServer, startNats } from '../../bus/nats'
import { getTestInstance, type TestInstance } from '../../helpers'
import { HOOK_ENV, type Receiver, startReceiver } from './receiver'

/** A gateway on the test's bus (ROLE=gateway, the gateway's user), its outbox in JetStream. */
function startGateway(nats: NatsServer, dataDir: string, env: Record<string, string> = {}) {
	return getTestInstance(
		{ ...HOOK_ENV, BUS_URL: nats.url, BUS_HEARTBEAT: '300', ROLE: 'gateway', ...env },
		{ dataDir },
	)
}

/** What a block of tests of the JetStream outbox stands on. */
export interface JetStreamBed {
	nats: NatsServer
	rx: Receiver
	/** The one data folder every gateway of the block shares (a restart finds its database). */
	dataDir: string
	/** A gateway on the bed's bus and data folder, halted when the block ends if the test has not. */
	gateway(env?: Record<string, string>): Promise<TestInstance>
}

/**
 * A nats-server, a webhook receiver and a data folder, made before the tests of the `describe` it is
 * called in and removed after them, the gateways started through it halted first.
 */
export function jetStreamBed(): JetStreamBed {
	const gateways: TestInstance[] = []
	// Filled in by beforeAll, before any test reads it.
	const bed = {
		async gateway(env: Record<string, string> = {}) {
			const t = await startGateway(bed.nats, bed.dataDir, env)
			gateways.push(t)
			return t
		},
	} as JetStreamBed
	beforeAll(async () => {
		bed.nats = await startNats()
		bed.rx = startReceiver()
		bed.dataDir = mkdtempSync(join(tmpdir(), 'ubg-hooks-js-'))
	}, 60_000)
	afterAll(async () => {
		for (const t of gateways) await t.halt()
		bed.rx?.stop()
		await bed.nats?.stop()
		if (bed.dataDir) rmSync(bed.dataDir, { recursive: true, force: true })
	})
	return bed
}

/** A fake TDLib update numbered `seq`, as the shard numbers it, for the userbot. */
export function publishSeq(t: TestInstance, userbotId: number, seq: number, text: string) {
	t.ctx.updates.publish(
		userbotId,
		{ _: 'updateNewMessage', message: { content: { text: { text } } } } as { _: string },
		seq,
	)
}

/** Nothing of the outbox is in the database: its two tables stay empty. */
export async function expectNoOutboxRows(t: TestInstance) {
	expect(await t.ctx.db.select().from(webhookEvent)).toEqual([])
	expect(await t.ctx.db.select().from(webhookDelivery)).toEqual([])
}

/** The messages the outbox's stream holds under `subject` (`ubg.wh.<endpoint>.<userbot>`). */
export async function storedUnder(t: TestInstance, subject: string): Promise<number> {
	const bus = t.ctx.bus
	if (!bus) throw new Error('no bus')
	const info = await bus.jsm.streams.info(WEBHOOKS_STREAM, { subjects_filter: subject })
	return info.state.subjects?.[subject] ?? 0
}

/**
 * The pair consumer's state, asked through a gateway's bus or a connection of the test's own: what
 * waits, what is out, what was sent again, and how many times the stream handed one of its messages
 * out (`delivered`, the consumer's sequence: every delivery, a message given back and handed out again
 * counting once more), how many of those were answered in order (`ackFloor`), and the pulls
 * open on it that someone still listens to (`waiting`).
 */
export async function consumerState(
	from: TestInstance | JetStreamManager,
	endpointId: number,
	userbotId: number,
) {
	const jsm = 'ctx' in from ? from.ctx.bus?.jsm : from
	if (!jsm) throw new Error('no bus')
	const info = await jsm.consumers.info(WEBHOOKS_STREAM, `wh_${endpointId}_${userbotId}`)
	return {
		pending: info.num_pending,
		ackPending: info.num_ack_pending,
		redelivered: info.num_redelivered,
		delivered: info.delivered.consumer_seq,
		ackFloor: info.ack_floor.consumer_seq,
		waiting: info.num_waiting,
	}
}

/** A JetStream manager on a connection of the test's own (the bed's `sniffer` user), outliving gateways. */
export async function sniffer(nats: NatsServer): Promise<{ jsm: JetStreamManager; close(): Promise<void> }> {
	const config = busConfigOf(nats.urlFor('sniffer'))
	const auth = config.auth as { user: string; pass: string }
	const nc = await connect({ servers: config.servers, user: auth.user, pass: auth.pass })
	return { jsm: await jetstreamManager(nc), close: () => nc.close() }
}

/** Waits (re-checking at each turn of 20 ms, at most `ms`) until `pred` holds. */
export async function eventually(pred: () => Promise<boolean> | boolean, ms = 10_000): Promise<void> {
	const end = Date.now() + ms
	while (!(await pred())) {
		if (Date.now() > end) throw new Error(`not within ${ms} ms`)
		await Bun.sleep(20)
	}
}
