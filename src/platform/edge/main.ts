import { ConfigError } from '../../server/config'
import { createEdgeApp } from './app'

/**
 * The edge entry: the REST families on `Deno.serve` with network and environment permissions only
 * (`npm run build:edge`, then `deno run --allow-net --allow-env .tmp/build/edge.js`). On a host that
 * calls a module's handler itself, the same handler is `createEdgeApp(env).fetch`.
 * docs/operations.md#rest-at-the-edge.
 */

/** The part of Deno's API this entry uses (the type check runs with Bun's types). */
declare const Deno: {
	env: { toObject(): Record<string, string> }
	serve(
		options: {
			port: number
			hostname: string
			onListen?: (addr: { hostname: string; port: number }) => void
		},
		handler: (request: Request, info: { remoteAddr: { hostname: string } }) => Promise<Response>,
	): { addr: { hostname: string; port: number }; shutdown(): Promise<void> }
	addSignalListener(signal: 'SIGTERM' | 'SIGINT', fn: () => void): void
	exit(code: number): never
}

/** Our one line, never a library's stack: as the other entries say it. */
function failure(err: unknown): string {
	if (err instanceof ConfigError) return `configuration error: ${err.message}`
	const text = err instanceof Error ? err.message : String(err)
	return `startup error: ${(text.split(/\r?\n/)[0] ?? '').trim().slice(0, 300)}`
}

async function main() {
	let edge: Awaited<ReturnType<typeof createEdgeApp>>
	try {
		edge = await createEdgeApp(Deno.env.toObject())
	} catch (err) {
		console.error(failure(err))
		return Deno.exit(2)
	}
	const { config, log } = edge
	const server = Deno.serve({ port: config.port, hostname: config.host, onListen: () => {} }, edge.fetch)
	const host = server.addr.hostname === '0.0.0.0' ? '127.0.0.1' : server.addr.hostname
	log.info('listening', { url: `http://${host}:${server.addr.port}`, runtime: 'deno', entry: 'edge' })
	let stopping = false
	const stop = async (signal: string) => {
		if (stopping) return
		stopping = true
		log.info('stopping', { signal })
		await server.shutdown()
		edge.close()
		Deno.exit(0)
	}
	Deno.addSignalListener('SIGTERM', () => void stop('SIGTERM'))
	Deno.addSignalListener('SIGINT', () => void stop('SIGINT'))
}

await main()
