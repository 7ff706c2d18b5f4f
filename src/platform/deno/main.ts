import { chmodSync } from 'node:fs'
import { builtInPlugins, createApp } from '../../app'
import { createLogger } from '../../common/util/logger'
import { type Config, loadConfig } from '../../server/config'
import { failureLine, oneLine } from '../bun/serve'
import { loadDotenv } from '../dotenv'
import { shutDown } from '../shutdown'
import { type DenoServeInfo, denoHandler, denoPlugins } from './serve'

/**
 * `npm run start:deno`: the REST families on Deno 2, `Deno.serve(app.fetch)`, against an embedded
 * libSQL file (libsql's native addon, which Deno loads from node_modules) or a libSQL server URL.
 * The plugins that need Bun (TDLib's supervisor, the WebSocket channel) stay on Bun (platform/deno/serve.ts).
 */

/** The part of Deno's API this entry uses (the type check runs with Bun's types). */
interface DenoServer {
	addr: { hostname: string; port: number }
	shutdown(): Promise<void>
}
declare const Deno: {
	serve(
		options: {
			port: number
			hostname: string
			onListen?: (addr: { hostname: string; port: number }) => void
		},
		handler: (request: Request, info: DenoServeInfo) => Response | Promise<Response>,
	): DenoServer
	exit(code: number): never
}

async function main() {
	process.umask(0o077)
	let config: Config
	try {
		loadDotenv('.env', process.env)
	} catch (err) {
		process.stderr.write(`${failureLine(err)}\n`)
		return Deno.exit(2)
	}
	let plugins: { ids: string[]; skipped: string[] }
	try {
		config = loadConfig(process.env)
		plugins = denoPlugins(
			config,
			builtInPlugins.map((p) => p.id),
		)
	} catch (err) {
		process.stderr.write(`${failureLine(err)}\n`)
		return Deno.exit(2)
	}
	const log = createLogger(config.logLevel)
	let instance: Awaited<ReturnType<typeof createApp>>
	try {
		instance = await createApp(config, {
			logger: log,
			plugins: builtInPlugins.filter((p) => plugins.ids.includes(p.id)),
			restOnly: true,
		})
		chmodSync(config.dataDir, 0o700)
	} catch (err) {
		process.stderr.write(`${failureLine(err)}\n`)
		return Deno.exit(2)
	}
	for (const plugin of plugins.skipped) log.info('plugin skipped', { plugin, reason: 'needs Bun' })
	let server: DenoServer
	try {
		server = Deno.serve(
			{ port: config.port, hostname: config.host, onListen: () => {} },
			denoHandler(instance.app),
		)
	} catch (err) {
		await instance.close()
		process.stderr.write(`startup error: cannot listen on ${config.host}:${config.port}: ${oneLine(err)}\n`)
		return Deno.exit(2)
	}
	const host = server.addr.hostname === '0.0.0.0' ? '127.0.0.1' : server.addr.hostname
	const url = `http://${host}:${server.addr.port}`
	log.info('listening', { url, plugins: plugins.ids, runtime: 'deno' })
	let stopping = false
	const stop = async (signal: string) => {
		if (stopping) return
		stopping = true
		log.info('stopping', { signal })
		const code = await shutDown(
			{ stopListening: () => server.shutdown(), close: instance.close },
			config.shutdownTimeoutMs,
			log,
		)
		Deno.exit(code)
	}
	process.on('SIGTERM', () => void stop('SIGTERM'))
	process.on('SIGINT', () => void stop('SIGINT'))
}

await main()
