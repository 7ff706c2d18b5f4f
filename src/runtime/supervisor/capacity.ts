import { availableParallelism, totalmem } from 'node:os'
import { RuntimeError } from '../telegram/types'
import type { DescriptorLimit } from './rlimit'

/**
 * How many userbots a supervisor child can hold (docs/capacity.md). Two limits: its file descriptors
 * (a per-process limit, so each child has its own) and the machine's memory (shared by the children,
 * so each gets an equal part of the budget). The costs per client are measured by
 * `test/bench/idle-userbots.ts` on real TDLib (idle, offline) and rounded up for a logged-in client.
 */

/**
 * Descriptors one client holds: measured 6.0 for an idle offline TDLib client (its database,
 * binlog and wake-up pipes), plus 2 for the connections a logged-in client keeps to Telegram.
 */
export const FDS_PER_CLIENT = 8
/**
 * Descriptors a child needs whatever its client count: TDLib's own threads and pollers (measured
 * about 130 with the first clients), the runtime, the socket to the parent, files being moved.
 */
export const FD_RESERVE = 256
/** Memory one client holds: measured 1.4 MB for an idle TDLib client, rounded up. */
export const BYTES_PER_CLIENT = 1.5 * 1024 ** 2
/** The memory budget by default: this share of the machine's memory. */
export const DEFAULT_MEMORY_SHARE = 0.8

export type CapacityLimit = 'descriptors' | 'memory'

/** A child's capacity and the limit that sets it, in words an operator can act on. */
export interface Capacity {
	clients: number
	limit: CapacityLimit
	/** e.g. `the file descriptor limit of 20000 (8 per userbot, 256 kept back)`. */
	reason: string
}

/**
 * The room of a process's supervisors, as a shard advertises it on the bus (docs/capacity.md#on-a-bus):
 * the clients they may hold in all, how many they hold, and the limit that sets it.
 */
export interface Room {
	clients: number
	used: number
	reason: string
}

/** The clients a descriptor limit allows, after the reserve. */
export function descriptorCapacity(limit: DescriptorLimit): Capacity {
	return {
		clients: Math.max(0, Math.floor((limit.soft - FD_RESERVE) / FDS_PER_CLIENT)),
		limit: 'descriptors',
		reason: `the file descriptor limit of ${limit.soft} (${FDS_PER_CLIENT} per userbot, ${FD_RESERVE} kept back)`,
	}
}

/** One child's part of the memory budget, in clients. */
export function memoryCapacity(budgetBytes: number, children: number): Capacity {
	const share = budgetBytes / Math.max(1, children)
	return {
		clients: Math.max(0, Math.floor(share / BYTES_PER_CLIENT)),
		limit: 'memory',
		reason: `its share of the memory budget, ${mib(share)} MiB (${mib(BYTES_PER_CLIENT)} MiB per userbot)`,
	}
}

/** The tighter of the two. */
export function tighter(a: Capacity, b: Capacity): Capacity {
	return b.clients < a.clients ? b : a
}

const mib = (bytes: number) => String(Math.round((bytes / 1024 ** 2) * 10) / 10)

/** The memory budget: `MEMORY_BUDGET_MB`, else a share of the machine's memory. */
export function memoryBudget(configuredMb: number | undefined): number {
	return configuredMb !== undefined ? configuredMb * 1024 ** 2 : Math.floor(totalmem() * DEFAULT_MEMORY_SHARE)
}

/**
 * `SUPERVISORS=auto`: enough children for the memory budget's clients at the descriptor limit each
 * child will have, and at least one per core (each child has its own TDLib receive loop); at most 64.
 */
export function autoSupervisors(
	budgetBytes: number,
	limit: DescriptorLimit | null,
	childMaxFds?: number,
): number {
	const cores = availableParallelism()
	if (!limit) return Math.min(64, cores)
	const soft = Math.min(limit.hard, childMaxFds ?? limit.hard)
	const perChild = Math.max(1, descriptorCapacity({ soft, hard: limit.hard }).clients)
	const wanted = Math.ceil(Math.floor(budgetBytes / BYTES_PER_CLIENT) / perChild)
	return Math.max(1, Math.min(64, Math.max(cores, wanted)))
}

/** The refusal of a start that does not fit: `capacity reached: ...`, naming the limit. */
export function capacityReached(running: number, capacity: Capacity, children = 1): RuntimeError {
	const where = children === 1 ? 'here' : `in ${children} supervisor children`
	const each = children === 1 ? '' : ' each'
	return new RuntimeError(
		'capacity',
		`capacity reached: ${running} userbot${running === 1 ? '' : 's'} run${running === 1 ? 's' : ''} ${where}, the most ${capacity.reason} allows${each}`,
	)
}
