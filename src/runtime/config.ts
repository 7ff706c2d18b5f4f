import type { SharedSecrets } from './bus/storage'
import type { BusConfig } from './bus/types'
import type { FloodLimits } from './flood/limits'

/**
 * What the runtime reads of the process's configuration. Declared here, with the runtime, and read
 * from the environment by the server (src/server/config `Config` is one of these): the composition
 * root (src/app) hands the server's configuration in.
 */
export interface RuntimeConfig {
	dataDir: string
	/** What this process runs: the gateway, supervisor shards, or both (`ROLE`). */
	role: 'all' | 'gateway' | 'shard'
	telegram: {
		apiId?: number
		apiHash?: string
		backend: 'tdlib' | 'emulator'
		/** Real TDLib never lets its network go (`TDLIB_OFFLINE`). */
		offline: boolean
	}
	commandTimeoutMs: number
	supervisorTransport: 'socket' | 'ipc'
	/** Supervisor children of this process (`SUPERVISORS`); `auto`: sized from the machine. */
	supervisors: number | 'auto'
	supervisorRunLog?: string
	/** Liveness probes of each TDLib client; interval 0: none. */
	clientProbe: { intervalMs: number; timeoutMs: number }
	emulator: { floodLimits?: string }
	capacity: { memoryBudgetMb?: number; childMaxFds?: number }
	updates: { defaultKinds: readonly string[]; bufferSize: number; bufferAgeMs: number }
	/** The flood governor; `limits` null: off. */
	flood: { limits: FloodLimits | null; maxWaitMs: number; warmupMs: number }
	/** The deployment's secrets: the bus's key is derived from the data key; every process must agree on all three. */
	secrets: SharedSecrets
	/** The NATS bus between gateways and shards; absent: one process, no bus. */
	bus?: BusConfig
}
