import { createLogger } from '../common/util/logger'
import { failureLine, probePort } from '../platform/bun/serve'
import { type Config, loadConfig } from '../server/config'
import { startGateways } from './gateways'

/**
 * `npm start` (or the binary) with `GATEWAYS` other than 1 and no GATEWAY_INDEX: the parent of the
 * gateways. Returns `single` when the setting comes to one process (`auto` on one core), for the
 * caller to serve as usual; otherwise `running`: the process lives on its gateways until a signal
 * stops them, and exits with the stop's code.
 */
export async function serveGateways(env: Record<string, string | undefined>): Promise<'single' | 'running'> {
	let config: Config
	let port: number
	try {
		config = loadConfig(env)
		if (config.gateways.count === 1) return 'single'
		// The gateways share the port among themselves; a stranger on it still stops the start (unless
		// REUSE_PORT=true says the port is shared with other processes of this deployment on purpose).
		// PORT=0: one free port, found here, for all of them.
		port = config.port === 0 || !config.reusePort ? probePort(config.host, config.port) : config.port
	} catch (err) {
		process.stderr.write(`${failureLine(err)}\n`)
		process.exit(2)
	}
	const log = createLogger(config.logLevel)
	const outcome = await startGateways({ config, env, log, port })
	if (!outcome.ok) {
		process.stderr.write(`${outcome.line}\n`)
		process.exit(2)
	}
	const { fleet } = outcome
	const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host
	log.info('gateways listening', {
		url: `http://${host}:${port}`,
		gateways: config.gateways.count,
		pids: fleet.pids(),
	})
	let stopping = false
	const stop = async (signal: string) => {
		if (stopping) return
		stopping = true
		log.info('stopping', { signal })
		const code = await fleet.stop()
		log.info('stopped', { code })
		process.exit(code)
	}
	process.on('SIGTERM', () => void stop('SIGTERM'))
	process.on('SIGINT', () => void stop('SIGINT'))
	return 'running'
}
