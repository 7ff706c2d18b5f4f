import type { JetStreamClient, JetStreamManager } from '@nats-io/jetstream'
import type { KV } from '@nats-io/kv'
import type { NatsConnection } from '@nats-io/transport-node'

/**
 * The bus's contracts, declared here with the bus: the server's configuration reads BUS_URL and its
 * fellows into a `BusConfig` (src/server/config), and the app's context carries a `Bus` (`ctx.bus`).
 */

export interface BusConfig {
	/** The servers, without the credentials BUS_URL may carry (those are in `auth`). */
	servers: string[]
	/** This process's shard name, when it runs one (ROLE=shard or all). */
	shardId?: string
	heartbeatMs: number
	/** How this process proves who it is to the NATS server; absent: anonymous. */
	auth?: BusAuth
	/** Present: TLS is required (a `tls://` server or a BUS_TLS_* file); the files, when given. */
	tls?: { caFile?: string; certFile?: string; keyFile?: string }
}

export type BusAuth =
	| { kind: 'password'; user: string; pass: string }
	| { kind: 'token'; token: string }
	| { kind: 'nkey'; seedFile: string }
	| { kind: 'creds'; file: string }

/**
 * One process's end of the bus's message sealing, as the bus's parts use it (`BusCodec` in
 * codec.ts): JSON in, sealed bytes out, and back; undefined for a refused message.
 */
export interface BusSealing {
	readonly fingerprint: string
	seal(subject: string, value: unknown): Uint8Array
	/** `storedAt`: when the stream or a bucket stored the message (ms), for one read again by design. */
	open<T = unknown>(subject: string, data: Uint8Array, storedAt?: number): T | undefined
}

/**
 * A gateway's or shard's connection to the bus, with the stream and buckets they share
 * (`connectBus` in connection.ts).
 */
export interface Bus {
	nc: NatsConnection
	js: JetStreamClient
	jsm: JetStreamManager
	members: KV
	leases: KV
	/** Seals what this process sends and opens what it receives (seal.ts). */
	codec: BusSealing
	/** Called each time the connection is back after a disconnect (the server restarted, the network). */
	onReconnect(listener: () => void): () => void
	/** Whether the connection is up now (not between a disconnect and its reconnect, not closed). */
	connected(): boolean
	close(): Promise<void>
}
