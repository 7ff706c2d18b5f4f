import { type AnyElysia, Elysia } from 'elysia'
import { createLogger, type Logger } from '../common/util/logger'
import { startShard } from '../runtime/bus/process'
import { checkTdRequest } from '../server/commands/td-request'
import type { Config } from '../server/config'
import { closerStack } from './closers'

/**
 * `ROLE=shard`: supervisors on the bus and nothing else: no database, no REST, no WebSocket. It
 * serves `GET /health` on `PORT` for whoever watches it: `{status, bus, shard, capacity}`.
 */
export interface ShardApp {
	app: AnyElysia
	ctx: { log: Logger }
	close(): Promise<void>
}

export async function createShardApp(config: Config, opts: { logger?: Logger } = {}): Promise<ShardApp> {
	const log = opts.logger ?? createLogger(config.logLevel)
	const { closers, closeAll } = closerStack(log)
	try {
		// The plugins the gateways of this configuration load: what their commands may send.
		const { choosePlugins } = await import('./index')
		const { chosen } = await choosePlugins(config, undefined, false)
		const shard = await startShard(config, log, closers, chosen, checkTdRequest)
		const app = new Elysia({ serve: { reusePort: config.reusePort } }).get('/health', ({ set }) => {
			const fenced = performance.now() - shard.membership.lastBeatOk > 2 * (config.bus?.heartbeatMs ?? 1000)
			if (fenced) set.status = 503
			// Public, as the gateway's: whether a new userbot fits here, nothing countable; the counts are
			// the gateways' metrics behind METRICS_TOKEN (docs/capacity.md#watching-it).
			const room = shard.room()
			return {
				status: fenced ? 'degraded' : 'ok',
				bus: fenced ? 'cut off' : 'ok',
				shard: shard.id,
				...(room ? { capacity: { room: room.used < room.clients } } : {}),
			}
		})
		return { app, ctx: { log }, close: closeAll }
	} catch (err) {
		await closeAll()
		throw err
	}
}
