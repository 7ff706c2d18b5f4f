import { readFileSync } from 'node:fs'
import {
	type JetStreamManager,
	jetstream,
	jetstreamManager,
	RetentionPolicy,
	StorageType,
} from '@nats-io/jetstream'
import { type KV, Kvm } from '@nats-io/kv'
import {
	connect,
	credsAuthenticator,
	type NatsConnection,
	type NodeConnectionOptions,
	nkeyAuthenticator,
} from '@nats-io/transport-node'
import type { Logger } from '../../common/util/logger'
import { BusCodec } from './codec'
import type { BusKey } from './seal'
import { AUTH_STATES, EVENTS_STREAM, inboxPrefix, LEASES_BUCKET, MEMBERS_BUCKET, UPDATES } from './subjects'
import type { Bus, BusConfig } from './types'

/** The connection's contract (types.ts): the app's context carries it (`ctx.bus`). */
export type { Bus } from './types'

export interface BusOptions {
	config: BusConfig
	/** What this connection is for: its permissions on the server are those of this role. */
	role: 'gateway' | 'shard'
	/** The gateway's or shard's id: names the connection and its inboxes. */
	id: string
	key: BusKey
	heartbeatMs: number
	/** Updates kept per userbot (`UPDATE_BUFFER_SIZE`) and for how long (ms). */
	bufferSize: number
	bufferAgeMs: number
	log: Logger
}

export class BusConnectError extends Error {
	override name = 'BusConnectError'
}

const nanos = (ms: number) => ms * 1_000_000

/** The NATS client's options: the credentials and TLS files as configured, never in a URL. */
export function natsOptions(config: BusConfig, name: string, prefix: string): NodeConnectionOptions {
	const opts: NodeConnectionOptions = {
		servers: config.servers,
		name,
		inboxPrefix: prefix,
		maxReconnectAttempts: -1,
		reconnectTimeWait: 250,
	}
	const auth = config.auth
	if (auth?.kind === 'password') Object.assign(opts, { user: auth.user, pass: auth.pass })
	else if (auth?.kind === 'token') opts.token = auth.token
	else if (auth?.kind === 'nkey')
		opts.authenticator = nkeyAuthenticator(
			new TextEncoder().encode(readFileSync(auth.seedFile, 'utf8').trim()),
		)
	else if (auth?.kind === 'creds') opts.authenticator = credsAuthenticator(readFileSync(auth.file))
	// An object, even empty, makes the client refuse a server that does not speak TLS.
	if (config.tls) opts.tls = { ...config.tls }
	return opts
}

/** The reason a connection failed, in our words: never the client library's text. */
function connectFailure(err: unknown, config: BusConfig): BusConnectError {
	const text = err instanceof Error ? `${err.name} ${err.message}` : String(err)
	let why = 'the NATS server cannot be reached'
	if (/authori[sz]ation|authentication|user.*(invalid|expired)/i.test(text))
		why = 'the NATS server refused this process’s credentials'
	else if (/does not support 'tls'|tls.*not available|not available on this server/i.test(text))
		why = 'the NATS server does not offer TLS, which tls:// and BUS_TLS_* require'
	else if (/certificate|handshake|ssl|tls/i.test(text)) why = 'the TLS handshake with the NATS server failed'
	return new BusConnectError(`cannot connect to the bus (${config.servers.join(', ')}): ${why}`)
}

/**
 * Connects. A gateway makes sure the stream and buckets exist, with its settings (the last one to
 * start sets the retention; they should agree); a shard may not create them (its permissions do
 * not allow it) and waits for a gateway to have done so.
 */
export async function connectBus(opts: BusOptions): Promise<Bus> {
	const log = opts.log.child({ component: 'bus' })
	const name = `${opts.role}-${opts.id}`
	let nc: NatsConnection
	try {
		nc = await connect(natsOptions(opts.config, name, inboxPrefix(opts.role, opts.id)))
	} catch (err) {
		throw connectFailure(err, opts.config)
	}
	const listeners = new Set<() => void>()
	try {
		const jsm = await jetstreamManager(nc)
		const kvm = new Kvm(nc)
		let members: KV
		let leases: KV
		if (opts.role === 'gateway') {
			await ensureStream(jsm, opts)
			// A member's entry outlives many missed heartbeats; liveness is judged by the heartbeats.
			members = await kvm.create(MEMBERS_BUCKET, { history: 1, ttl: Math.max(60_000, 20 * opts.heartbeatMs) })
			leases = await kvm.create(LEASES_BUCKET, { history: 1 })
		} else {
			await waitForGateway(jsm, log, () => nc.isClosed())
			members = await kvm.open(MEMBERS_BUCKET)
			leases = await kvm.open(LEASES_BUCKET)
		}
		const state = { up: true }
		watchStatus(nc, log, listeners, state)
		log.info('bus connected', { servers: opts.config.servers, as: name, tls: opts.config.tls !== undefined })
		return {
			nc,
			js: jetstream(nc),
			jsm,
			members,
			leases,
			codec: new BusCodec(opts.key, name, opts.log),
			connected: () => state.up && !nc.isClosed(),
			onReconnect(listener) {
				listeners.add(listener)
				return () => listeners.delete(listener)
			},
			async close() {
				listeners.clear()
				await nc.drain().catch(() => nc.close())
			},
		}
	} catch (err) {
		await nc.close().catch(() => undefined)
		throw err
	}
}

async function ensureStream(jsm: JetStreamManager, opts: BusOptions) {
	const stream = {
		name: EVENTS_STREAM,
		subjects: [`${UPDATES}.*.*`, `${AUTH_STATES}.*.*`],
		retention: RetentionPolicy.Limits,
		storage: StorageType.File,
		max_msgs_per_subject: opts.bufferSize,
		max_age: nanos(opts.bufferAgeMs),
		duplicate_window: nanos(Math.min(120_000, opts.bufferAgeMs)),
		allow_direct: true,
	}
	const exists = await jsm.streams.info(EVENTS_STREAM).then(
		() => true,
		() => false,
	)
	if (exists) await jsm.streams.update(EVENTS_STREAM, stream)
	else await jsm.streams.add(stream).catch(() => jsm.streams.update(EVENTS_STREAM, stream))
}

/** A shard on a new bus: the stream and buckets come with the first gateway. */
async function waitForGateway(jsm: JetStreamManager, log: Logger, closed: () => boolean) {
	let told = false
	for (;;) {
		const found = await Promise.all(
			[EVENTS_STREAM, `KV_${MEMBERS_BUCKET}`, `KV_${LEASES_BUCKET}`].map((s) =>
				jsm.streams.info(s).then(
					() => true,
					() => false,
				),
			),
		)
		if (found.every(Boolean)) return
		if (closed()) throw new BusConnectError('the bus connection closed while waiting for a gateway')
		if (!told) log.info('waiting for a gateway to set up the bus (its stream and buckets)')
		told = true
		await Bun.sleep(500)
	}
}

function watchStatus(nc: NatsConnection, log: Logger, listeners: Set<() => void>, state: { up: boolean }) {
	void (async () => {
		for await (const s of nc.status()) {
			if (s.type === 'disconnect') {
				state.up = false
				log.warn('bus disconnected')
			} else if (s.type === 'reconnect') {
				state.up = true
				log.warn('bus reconnected')
				for (const l of [...listeners]) {
					try {
						l()
					} catch (err) {
						log.error('bus reconnect listener failed', { error: err instanceof Error ? err : String(err) })
					}
				}
			} else if (s.type === 'error') {
				// A permission the server refused: what was tried, in the server's words (no payload in them).
				log.warn('bus operation refused by the server', {
					error: String(s.error?.message ?? s.error).slice(0, 200),
				})
			}
		}
	})().catch(() => undefined)
}
