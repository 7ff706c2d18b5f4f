import type { Logger } from '../../common/util/logger'
import type { RuntimeConfig } from '../config'
import { autoSupervisors, memoryBudget, memoryCapacity } from './capacity'
import { SupervisorClient, type SupervisorOptions } from './client'
import { setDescriptorLimit } from './rlimit'
import { ShardedRuntime } from './sharded'
import type { TelegramRuntime } from './types'

export { SupervisorClient, type SupervisorOptions } from './client'
export { ShardedRuntime } from './sharded'
export type { InvokeOptions, RequestEvent, RuntimeEvent, StartClientOptions, TelegramRuntime } from './types'

export type LocalRuntime = TelegramRuntime & {
	readonly pid: number | undefined
	/** Renews the children's fence (a shard on the bus; see protocol `fence`). */
	fence(ms: number): void
}

/**
 * The Telegram runtime of this process: a supervisor child running real TDLib or the emulator, or
 * `SUPERVISORS` of them behind one `ShardedRuntime`. Null when the TDLib backend has no API
 * credentials ("not configured").
 */
export async function createRuntime(
	config: RuntimeConfig,
	log: Logger,
	overrides: Partial<SupervisorOptions> = {},
): Promise<LocalRuntime | null> {
	const { apiId, apiHash, backend, offline } = config.telegram
	if (backend === 'tdlib' && (apiId === undefined || apiHash === undefined)) return null
	const settings: NonNullable<SupervisorOptions['settings']> = {
		offline,
		...(apiId !== undefined && apiHash !== undefined ? { telegram: { apiId, apiHash } } : {}),
		...(config.supervisorRunLog ? { runLog: config.supervisorRunLog } : {}),
		...(config.clientProbe.intervalMs > 0 ? { probe: config.clientProbe } : {}),
		...(backend === 'emulator' && config.emulator.floodLimits
			? { emulatorFloodLimits: config.emulator.floodLimits }
			: {}),
		...(config.capacity.childMaxFds !== undefined ? { maxFds: config.capacity.childMaxFds } : {}),
	}
	// This process too holds a descriptor per socket: its soft limit goes up to the hard one.
	const fds = await setDescriptorLimit()
	if (!fds) log.info('the file descriptor limit cannot be read or raised on this system')
	const budget = memoryBudget(config.capacity.memoryBudgetMb)
	const count =
		config.supervisors === 'auto'
			? autoSupervisors(budget, fds, config.capacity.childMaxFds)
			: config.supervisors
	const memory = memoryCapacity(budget, count)
	log.info('supervisors', {
		count,
		memoryBudgetMb: Math.round(budget / 1024 ** 2),
		fileDescriptors: fds?.soft,
	})
	const make = (name: string) =>
		new SupervisorClient({
			backend,
			dataDir: config.dataDir,
			transport: config.supervisorTransport,
			commandTimeoutMs: config.commandTimeoutMs,
			log: count > 1 ? log.child({ supervisor: name }) : log,
			name,
			memory,
			...overrides,
			settings: {
				...settings,
				...(config.supervisorRunLog ? { label: `${config.bus?.shardId ?? 'local'}/${name}` } : {}),
				...overrides.settings,
			},
		})
	const clients = Array.from({ length: count }, (_, i) => make(String(i)))
	const started = await Promise.allSettled(clients.map((c) => c.start()))
	const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected')
	if (failed) {
		await Promise.all(clients.map((c) => c.close()))
		throw failed.reason
	}
	if (clients.length === 1) return clients[0] as SupervisorClient
	return new ShardedRuntime(clients.map((runtime, i) => ({ name: `supervisor-${i}`, runtime })))
}
