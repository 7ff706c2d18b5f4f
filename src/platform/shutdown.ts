import type { Logger } from '../common/util/logger'

/**
 * How a server stops on SIGTERM or SIGINT (main.ts, demo.ts, platform/deno/main.ts): it stops listening, answers
 * what is in flight, closes every WebSocket with 1001 once its commands are answered (clients go
 * to another gateway behind the balancer), closes the app (supervisors, bus, database, in that
 * app's order) and reports 0. All within `SHUTDOWN_TIMEOUT`: past it, one log line and 1, whatever
 * still hangs (a command that does not end, a client that does not read, a database that does not
 * answer), so that an orchestrator's stop never waits for its SIGKILL.
 */
export interface Stoppable {
	/** Stops accepting connections at once; resolves once the HTTP requests in flight are answered. */
	stopListening(): Promise<unknown>
	/** Every WebSocket closes with 1001 once its commands are answered; resolves when all have. */
	goAway?(): Promise<void>
	/** Everything else the app holds. */
	close(): Promise<void>
}

export async function shutDown(parts: Stoppable, timeoutMs: number, log: Logger): Promise<0 | 1> {
	const started = performance.now()
	let timer: ReturnType<typeof setTimeout> | undefined
	const late = new Promise<1>((resolve) => {
		timer = setTimeout(() => {
			log.error('stop took longer than SHUTDOWN_TIMEOUT: exiting anyway', { timeoutMs })
			resolve(1)
		}, timeoutMs)
	})
	const clean = (async (): Promise<0 | 1> => {
		try {
			// Called first: the listening socket closes now, while the rest drains.
			const http = parts.stopListening()
			await parts.goAway?.()
			await http
			await parts.close()
			log.info('stopped', { ms: Math.round(performance.now() - started) })
			return 0
		} catch (err) {
			log.error('stop failed', { error: err instanceof Error ? err : String(err) })
			return 1
		}
	})()
	const code = await Promise.race([clean, late])
	clearTimeout(timer)
	return code
}
