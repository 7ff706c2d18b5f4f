import { chmodSync } from 'node:fs'
import { ConfigError, loadConfig } from './config'

/** `npm start`: check the environment, build the app, serve REST and WebSocket on one port. */
async function main() {
	// Everything the server writes (database, secrets, TDLib folders, uploads) is for its own user:
	// sessions and tokens in the database must not be readable by other local accounts.
	process.umask(0o077)
	let config: ReturnType<typeof loadConfig>
	try {
		config = loadConfig()
	} catch (err) {
		if (err instanceof ConfigError) {
			process.stderr.write(`configuration error: ${err.message}\n`)
			process.exit(2)
		}
		throw err
	}
	// Loaded after the configuration is known good, so a bad value fails fast with its one line.
	const { createApp, StartupError } = await import('./app')
	let instance: Awaited<ReturnType<typeof createApp>>
	try {
		instance = await createApp(config)
	} catch (err) {
		if (err instanceof StartupError) {
			process.stderr.write(`startup error: ${err.message}\n`)
			process.exit(2)
		}
		throw err
	}
	const { app, ctx, close } = instance
	chmodSync(config.dataDir, 0o700)
	app.listen({ port: config.port, hostname: config.host })
	const server = app.server
	ctx.log.info('listening', {
		url: `http://${config.host}:${server?.port ?? config.port}`,
		plugins: config.plugins,
	})
	let stopping = false
	const stop = async (signal: string) => {
		if (stopping) return
		stopping = true
		ctx.log.info('stopping', { signal })
		await app.stop()
		await close()
		process.exit(0)
	}
	process.on('SIGTERM', () => void stop('SIGTERM'))
	process.on('SIGINT', () => void stop('SIGINT'))
}

await main()
