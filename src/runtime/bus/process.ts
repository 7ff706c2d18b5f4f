import { hostname } from 'node:os'
import type { Logger } from '../../common/util/logger'
import type { RuntimeConfig } from '../config'
import { wallClock } from '../flood/clock'
import { classOfMethod, type FloodClass } from '../flood/limits'
import { createRuntime, type LocalRuntime } from '../supervisor'
import { governRuntime } from '../supervisor/governed-runtime'
import type { TelegramRuntime } from '../supervisor/types'
import { type CommandPlugins, methodsByLabel, type TdRequestCheck } from './allowed'
import { type BusOptions, connectBus } from './connection'
import { RemoteRuntime } from './remote-runtime'
import { BusKey } from './seal'
import { ShardServer } from './shard-server'
import { checkBusKey, checkSharedSecrets, checkSharedStorage } from './storage'
import type { Bus, BusConfig } from './types'

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

const busOptions = (
	config: RuntimeConfig,
	log: Logger,
	role: 'gateway' | 'shard',
	id: string,
): BusOptions => ({
	config: config.bus as BusConfig,
	role,
	id,
	key: BusKey.fromDataKey(config.secrets.dataKey),
	heartbeatMs: config.bus?.heartbeatMs ?? 1000,
	bufferSize: config.updates.bufferSize,
	bufferAgeMs: config.updates.bufferAgeMs,
	log,
})

/**
 * This process's supervisors behind the flood governor and the accounts' health (src/runtime/flood): they
 * sit where the accounts' requests leave for TDLib, so there is one governor per account whatever
 * the number of gateways. The classes come from the plugins' commands (`flood`), by the label each
 * request carries (the command's name).
 */
async function createGovernedRuntime(
	config: RuntimeConfig,
	log: Logger,
	plugins: CommandPlugins,
): Promise<LocalRuntime | null> {
	const local = await createRuntime(config, log)
	if (!local) return null
	const classes = new Map<string, FloodClass | 'by_method'>()
	for (const plugin of plugins)
		for (const command of plugin.commands ?? []) if (command.flood) classes.set(command.name, command.flood)
	// A command of `by_method` (td_invoke) is paced by the class of each method it sends.
	const classOf = (label: string | undefined, method: string) => {
		const cls = label === undefined ? undefined : classes.get(label)
		return cls === 'by_method' ? classOfMethod(method) : cls
	}
	return governRuntime(local, {
		...config.flood,
		classOf,
		commandTimeoutMs: config.commandTimeoutMs,
		clock: wallClock,
		log,
	})
}

/** How long a shard waits for a gateway to have set the bus up (its storage id, its key's fingerprint). */
const GATEWAY_WAIT_MS = 30_000

/** A shard of this process's supervisors on the bus. */
export async function startShard(
	config: RuntimeConfig,
	log: Logger,
	closers: Array<() => Promise<void> | void>,
	/** The plugins the gateways load: their commands' declared methods are all a request may use. */
	plugins: CommandPlugins,
	/** The gateway's check of a request (src/server/commands/td-request.ts), made again by the shard. */
	checkRequest: TdRequestCheck,
): Promise<ShardServer> {
	const local: LocalRuntime | null = await createGovernedRuntime(config, log, plugins)
	if (!local)
		throw new Error(
			'a shard needs a Telegram backend: TELEGRAM_API_ID and TELEGRAM_API_HASH, or TDLIB_BACKEND=emulator',
		)
	const shardId = config.bus?.shardId ?? `${hostname()}-${crypto.randomUUID().slice(0, 8)}`
	let bus: Bus
	try {
		bus = await connectBus(busOptions(config, log, 'shard', shardId))
	} catch (err) {
		await local.close()
		throw err
	}
	try {
		await checkSharedStorage(bus.leases, config.dataDir, { waitMs: GATEWAY_WAIT_MS })
		await checkBusKey(bus.leases, bus.codec.fingerprint, GATEWAY_WAIT_MS)
	} catch (err) {
		await bus.close()
		await local.close()
		throw err
	}
	const allowed = methodsByLabel(plugins)
	const shard = new ShardServer({
		bus,
		shardId,
		local,
		heartbeatMs: config.bus?.heartbeatMs ?? 1000,
		defaultKinds: config.updates.defaultKinds,
		commandTimeoutMs: config.commandTimeoutMs,
		log,
		methodsOf: (label) => (label === undefined ? undefined : allowed.get(label)),
		checkRequest,
		dataDir: config.dataDir,
		emulator: config.telegram.backend === 'emulator',
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
	config: RuntimeConfig,
	log: Logger,
	closers: Array<() => Promise<void> | void>,
	plugins: CommandPlugins,
	checkRequest: TdRequestCheck,
): Promise<ProcessRuntime> {
	if (!config.bus) {
		const runtime = await createGovernedRuntime(config, log, plugins)
		if (runtime) closers.push(() => runtime.close())
		return { runtime }
	}
	if (config.role === 'shard')
		return { runtime: null, shard: await startShard(config, log, closers, plugins, checkRequest) }
	const gatewayId = crypto.randomUUID()
	// The gateway first: it sets the bus up (the stream, the buckets, the storage id), which a shard may not.
	const bus = await connectBus(busOptions(config, log, 'gateway', gatewayId.slice(0, 8)))
	closers.push(() => bus.close())
	// Uploads are written here for the shard's TDLib to read: the same folder on every machine.
	await checkSharedStorage(bus.leases, config.dataDir)
	await checkSharedSecrets(bus.leases, config.secrets, bus.codec.fingerprint)
	const shard =
		config.role === 'gateway' ? undefined : await startShard(config, log, closers, plugins, checkRequest)
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
