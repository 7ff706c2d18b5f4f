import {
	type JetStreamClient,
	type JetStreamManager,
	jetstream,
	jetstreamManager,
	RetentionPolicy,
	StorageType,
} from '@nats-io/jetstream'
import { type KV, Kvm } from '@nats-io/kv'
import { connect, type NatsConnection } from '@nats-io/transport-node'
import type { Logger } from '../logger'
import { AUTH_STATES, EVENTS_STREAM, LEASES_BUCKET, MEMBERS_BUCKET, UPDATES } from './subjects'

/** A gateway's or shard's connection to the bus, with the stream and buckets they share. */
export interface Bus {
	nc: NatsConnection
	js: JetStreamClient
	jsm: JetStreamManager
	members: KV
	leases: KV
	close(): Promise<void>
}

export interface BusOptions {
	servers: string[]
	/** Names the connection in the server's monitoring (`gateway-…`, `shard-…`). */
	name: string
	heartbeatMs: number
	/** Updates kept per userbot (`UPDATE_BUFFER_SIZE`) and for how long (ms). */
	bufferSize: number
	bufferAgeMs: number
	log: Logger
}

const nanos = (ms: number) => ms * 1_000_000

/**
 * Connects and makes sure the stream and buckets exist, with this process's settings. Every
 * process does it at start; the last one to start sets the retention (they should agree).
 */
export async function connectBus(opts: BusOptions): Promise<Bus> {
	const log = opts.log.child({ component: 'bus' })
	const nc = await connect({
		servers: opts.servers,
		name: opts.name,
		maxReconnectAttempts: -1,
		reconnectTimeWait: 250,
	})
	try {
		const jsm = await jetstreamManager(nc)
		const stream = {
			name: EVENTS_STREAM,
			subjects: [`${UPDATES}.>`, `${AUTH_STATES}.>`],
			retention: RetentionPolicy.Limits,
			storage: StorageType.File,
			max_msgs_per_subject: opts.bufferSize,
			max_age: nanos(opts.bufferAgeMs),
			duplicate_window: nanos(Math.min(120_000, opts.bufferAgeMs)),
		}
		const exists = await jsm.streams.info(EVENTS_STREAM).then(
			() => true,
			() => false,
		)
		if (exists) await jsm.streams.update(EVENTS_STREAM, stream)
		else await jsm.streams.add(stream).catch(() => jsm.streams.update(EVENTS_STREAM, stream))
		const kvm = new Kvm(nc)
		// A member's entry outlives many missed heartbeats; liveness is judged by the heartbeats.
		const members = await kvm.create(MEMBERS_BUCKET, {
			history: 1,
			ttl: Math.max(60_000, 20 * opts.heartbeatMs),
		})
		const leases = await kvm.create(LEASES_BUCKET, { history: 1 })
		void (async () => {
			for await (const s of nc.status()) {
				if (s.type === 'disconnect' || s.type === 'reconnect') log.warn(`bus ${s.type}`)
			}
		})().catch(() => undefined)
		return {
			nc,
			js: jetstream(nc),
			jsm,
			members,
			leases,
			async close() {
				await nc.drain().catch(() => nc.close())
			},
		}
	} catch (err) {
		await nc.close().catch(() => undefined)
		throw err
	}
}
