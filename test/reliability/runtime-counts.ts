import type { TestInstance } from '../helpers'

/**
 * What the supervisor client of an in-process app holds, read for the "nothing stays behind"
 * checks: the child's pid, its restarts, and the requests still waiting for the child (a private
 * map, read through a cast: tests only).
 */
export function runtimeCounts(t: TestInstance): {
	pid: number | undefined
	restarts: number
	pendingRequests: number
} {
	const runtime = t.ctx.runtime as unknown as {
		pid: number | undefined
		health(): { restarts: number }
		pending: { size: number }
	}
	return { pid: runtime.pid, restarts: runtime.health().restarts, pendingRequests: runtime.pending.size }
}
