import { expect } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { WEBHOOKS_STREAM } from '../../../plugins/webhooks/jetstream/messages'
import { webhookDelivery, webhookEvent } from '../../../plugins/webhooks/tables'
import type { NatsServer } from '../../bus/nats'
import { getTestInstance, type TestInstance } from '../../helpers'
import { HOOK_ENV } from './receiver'

/** A gateway on the test's bus (ROLE=gateway, the gateway's user), its outbox in JetStream. */
export function startGateway(nats: NatsServer, dataDir: string, env: Record<string, string> = {}) {
	return getTestInstance(
		{ ...HOOK_ENV, BUS_URL: nats.url, BUS_HEARTBEAT: '300', ROLE: 'gateway', ...env },
		{ dataDir },
	)
}

export const newDataDir = () => mkdtempSync(join(tmpdir(), 'ubg-hooks-js-'))

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

/** The pair consumer's state: what waits, what is out, what was sent again. */
export async function consumerState(t: TestInstance, endpointId: number, userbotId: number) {
	const bus = t.ctx.bus
	if (!bus) throw new Error('no bus')
	const info = await bus.jsm.consumers.info(WEBHOOKS_STREAM, `wh_${endpointId}_${userbotId}`)
	return { pending: info.num_pending, ackPending: info.num_ack_pending, redelivered: info.num_redelivered }
}

/** Waits (re-checking at each turn of 20 ms, at most `ms`) until `pred` holds. */
export async function eventually(pred: () => Promise<boolean> | boolean, ms = 10_000): Promise<void> {
	const end = Date.now() + ms
	while (!(await pred())) {
		if (Date.now() > end) throw new Error(`not within ${ms} ms`)
		await Bun.sleep(20)
	}
}
