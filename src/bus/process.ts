import { hostname } from 'node:os'
import type { Config } from '../config'
import type { Logger } from '../logger'
import { createRuntime, type LocalRuntime } from '../supervisor'
import type { TelegramRuntime } from '../supervisor/types'
import { type Bus, connectBus } from './connection'
import { RemoteRuntime } from './remote-runtime'
import { ShardServer } from './shard-server'
import { checkSharedSecrets, checkSharedStorage } from './storage'

/**
 * What a process runs by `ROLE`, with the bus or without it. Without `BUS_URL` (ROLE=all): the
 * local supervisors, as a single process always did. With it: a shard (the local supervisors
 * serving the bus) when ROLE is `shard` or `all`, and a gateway's runtime (the remote shards, its
 * own included) when ROLE is `gateway` or `all`.
 */
export interface ProcessRuntime {
	/** What the gateway uses; null for a shard alone, or without a Telegram backend and bus. */
	runtime: TelegramRuntime | null
	/** The gateway's connection to the bus (cache invalidations, the update log). */
	bus?: Bus
	gatewayId?: string
	shard?: ShardServer
}

const busOptions = (config: Config, log: Logger, name: string) => ({
	servers: config.bus?.servers ?? [],
	name,
	heartbeatMs: config.bus?.heartbeatMs ?? 1000,
	bufferSize: config.updates.bufferSize,
	bufferAgeMs: config.updates.bufferAgeMs,
	log,
})

/** A shard of this process's supervisors on the bus. */
export async function startShard(
	config: Config,
	log: Logger,
	closers: Array<() => Promise<void> | void>,
): Promise<ShardServer> {
	const local: LocalRuntime | null = await createRuntime(config, log)
	if (!local)
		throw new Error(
			'a shard needs a Telegram backend: TELEGRAM_API_ID and TELEGRAM_API_HASH, or TDLIB_BACKEND=emulator',
		)
	const shardId = config.bus?.shardId ?? `${hostname()}-${crypto.randomUUID().slice(0, 8)}`
	let bus: Bus
	try {
		bus = await connectBus(busOptions(config, log, `shard-${shardId}`))
	} catch (err) {
		await local.close()
		throw err
	}
	try {
		await checkSharedStorage(bus.leases, config.dataDir)
	} catch (err) {
		await bus.close()
		await local.close()
		throw err
	}
	const shard = new ShardServer({
		bus,
		shardId,
		local,
		heartbeatMs: config.bus?.heartbeatMs ?? 1000,
		defaultKinds: config.updates.defaultKinds,
		commandTimeoutMs: config.commandTimeoutMs,
		log,
	})
	closers.push(async () => {
		await shard.close()
		await bus.close()
	})
	try {
		await shard.start()
	} catch (err) {
		await shard.close().catch(() => undefined)
		await bus.close()
		throw err
	}
	return shard
}

export async function createProcessRuntime(
	config: Config,
	log: Logger,
	closers: Array<() => Promise<void> | void>,
): Promise<ProcessRuntime> {
	if (!config.bus) {
		const runtime = await createRuntime(config, log)
		if (runtime) closers.push(() => runtime.close())
		return { runtime }
	}
	const shard = config.role === 'gateway' ? undefined : await startShard(config, log, closers)
	if (config.role === 'shard') return { runtime: null, shard }
	const gatewayId = crypto.randomUUID()
	const bus = await connectBus(busOptions(config, log, `gateway-${gatewayId.slice(0, 8)}`))
	closers.push(() => bus.close())
	// Uploads are written here for the shard's TDLib to read: the same folder on every machine.
	await checkSharedStorage(bus.leases, config.dataDir)
	await checkSharedSecrets(bus.leases, config.secrets)
	const runtime = new RemoteRuntime({
		bus,
		gatewayId,
		heartbeatMs: config.bus.heartbeatMs,
		commandTimeoutMs: config.commandTimeoutMs,
		backend: config.telegram.backend,
		log,
	})
	closers.push(() => runtime.close())
	await runtime.start()
	return { runtime, bus, gatewayId, shard }
}
