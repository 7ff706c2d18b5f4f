import { readdirSync, readFileSync } from 'node:fs'
import { sql } from 'drizzle-orm'
import { userbot } from '../../db/schema'
import type { Bus } from '../runtime/bus/connection'
import type { AppContext } from '../server/context'
import type { Metrics } from '../server/metrics/metrics'

/** What the app knows about its supervisor children: one pid, several (SUPERVISORS), or none. */
function childPids(runtime: AppContext['runtime']): number[] {
	if (!runtime) return []
	const r = runtime as unknown as { pids?: Array<number | undefined>; pid?: number | undefined }
	const pids = r.pids ?? [r.pid]
	return pids.filter((p): p is number => typeof p === 'number')
}

/** Resident memory (bytes) and open descriptors of a process, from /proc; null where there is none. */
function processUse(pid: number): { rss: number; fds: number } | null {
	try {
		const status = readFileSync(`/proc/${pid}/status`, 'utf8')
		const rss = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN) * 1024
		return { rss, fds: readdirSync(`/proc/${pid}/fd`).length }
	} catch {
		return null
	}
}

/**
 * The gauges read at each scrape: sockets, subscriptions, userbots by authorization state (one
 * grouped query), the supervisor children's memory, descriptors and restarts, and the bus's
 * round trip. Labels are states and child indexes, both few.
 */
export function addCollectors(
	metrics: Metrics,
	ctx: AppContext,
	sockets: () => { sockets: number; waitingBytes: number },
	bus: Bus | undefined,
): void {
	metrics.gauge('ubg_ws_sockets', 'Open WebSocket connections.', [], (set) => set(sockets().sockets))
	metrics.gauge('ubg_ws_waiting_bytes', 'Reply and update bytes waiting for slow sockets.', [], (set) =>
		set(sockets().waitingBytes),
	)
	metrics.gauge('ubg_ws_subscriptions', 'Live-update subscriptions.', [], (set) =>
		set(ctx.updates.subscriptionCount()),
	)
	metrics.gauge(
		'ubg_userbots',
		'Userbots by their last authorization state.',
		['authorization_state'],
		async (set) => {
			const rows = await ctx.db
				.select({ state: userbot.authorizationState, n: sql<number>`count(*)` })
				.from(userbot)
				.where(sql`${userbot.deletedAt} is null`)
				.groupBy(userbot.authorizationState)
			for (const row of rows) set(Number(row.n), { authorization_state: row.state })
		},
	)
	const runtime = ctx.runtime
	if (runtime) {
		// Capacity (docs/capacity.md); both read 0 while no limit is known (`/health` then has no `capacity`).
		metrics.gauge('ubg_capacity_clients', 'TDLib clients the supervisors may hold in all.', [], (set) => {
			const room = runtime.room?.()
			if (room) set(room.clients)
		})
		metrics.gauge('ubg_capacity_used', 'TDLib client places taken.', [], (set) => {
			const room = runtime.room?.()
			if (room) set(room.used)
		})
		metrics.gauge('ubg_supervisor_restarts', 'Supervisor child restarts since start.', [], (set) =>
			set(runtime.health().restarts),
		)
		metrics.gauge('ubg_supervisor_clients', 'TDLib clients started.', [], (set) =>
			set(runtime.health().clients),
		)
		metrics.gauge(
			'ubg_supervisor_memory_bytes',
			'Resident memory of each supervisor child.',
			['child'],
			(set) => {
				childPids(runtime).forEach((pid, i) => {
					const use = processUse(pid)
					if (use && Number.isFinite(use.rss)) set(use.rss, { child: String(i) })
				})
			},
		)
		metrics.gauge(
			'ubg_supervisor_open_fds',
			'Open file descriptors of each supervisor child.',
			['child'],
			(set) => {
				childPids(runtime).forEach((pid, i) => {
					const use = processUse(pid)
					if (use) set(use.fds, { child: String(i) })
				})
			},
		)
	}
	if (bus) {
		metrics.gauge(
			'ubg_bus_rtt_seconds',
			'Round trip to the NATS server, measured at the scrape.',
			[],
			async (set) => {
				if (!bus.nc.isClosed()) set((await bus.nc.rtt()) / 1000)
			},
		)
	}
}
