import { startServer } from './serve'

/** `npm start`: check the environment, build the app, serve REST and WebSocket on one port. */
async function main() {
	// Everything the server writes (database, secrets, TDLib folders, uploads) is for its own user:
	// sessions and tokens in the database must not be readable by other local accounts.
	process.umask(0o077)
	const started = await startServer(process.env)
	if (!started.ok) {
		process.stderr.write(`${started.line}\n`)
		process.exit(2)
	}
	const { config, instance, url } = started
	const { app, ctx, close } = instance
	ctx.log.info('listening', { url, plugins: config.plugins })
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
