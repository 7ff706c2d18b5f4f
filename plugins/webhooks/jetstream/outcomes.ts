import type { KV } from '@nats-io/kv'
import { type Bus, kvSubject } from 'userbot-gateway/plugin'
import { OUTCOMES_BUCKET, outcomeKey, parseOutcome, type StoredOutcome } from './messages'

/**
 * The outcomes of the JetStream outbox's attempts: a key-value bucket, one sealed entry per stored
 * message (`<endpoint>.<stream seq>`), the latest attempt's. It is what the deliveries listing reads
 * and what a retry learns its first attempt's time from, whichever gateway made it.
 */
export class Outcomes {
	constructor(
		private readonly kv: KV,
		private readonly bus: Bus,
	) {}

	async put(endpointId: number, streamSeq: number, outcome: StoredOutcome): Promise<void> {
		const key = outcomeKey(endpointId, streamSeq)
		await this.kv.put(key, this.bus.codec.seal(kvSubject(OUTCOMES_BUCKET, key), outcome))
	}

	/** The stored outcome, checked (sealed for its key, whole shape); null when none or refused. */
	async get(endpointId: number, streamSeq: number): Promise<StoredOutcome | null> {
		const key = outcomeKey(endpointId, streamSeq)
		const entry = await this.kv.get(key)
		if (entry?.operation !== 'PUT') return null
		const opened = this.bus.codec.open(kvSubject(OUTCOMES_BUCKET, key), entry.value, entry.created.getTime())
		return parseOutcome(opened) ?? null
	}

	/** The stream sequences of an endpoint's outcomes, newest first. */
	async sequences(endpointId: number): Promise<number[]> {
		const seqs: number[] = []
		const keys = await this.kv.keys(`${endpointId}.*`)
		for await (const key of keys) {
			const seq = Number(key.slice(key.indexOf('.') + 1))
			if (Number.isSafeInteger(seq)) seqs.push(seq)
		}
		return seqs.sort((a, b) => b - a)
	}
}
