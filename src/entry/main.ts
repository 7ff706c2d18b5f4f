import { bundled } from '../build/bundled'
import { failureLine, startServer } from '../platform/bun/serve'
import { loadDotenv } from '../platform/dotenv'
import { shutDown } from '../platform/shutdown'
import { parseCommand, USAGE, versionLine } from './cli'

/**
 * The entry of `npm start` and of the compiled binary: `serve` (the default), `migrate`, `backup`, `restore`,
 * `--help`, `--version`, and the hidden `supervisor-child` with which the server starts its own
 * TDLib child (from source through Bun, compiled as the same executable).
 */
async function serve() {
	// GATEWAYS=N: this process is the parent of N gateways on one port (docs/shards.md#gateways-on-one-host).
	const { GATEWAYS, GATEWAY_INDEX } = process.env
	if (GATEWAYS !== undefined && GATEWAYS.trim() !== '1' && GATEWAYS !== '' && GATEWAY_INDEX === undefined) {
		const { serveGateways } = await import('../fleet/run')
		if ((await serveGateways(process.env)) === 'running') return
	}
	const started = await startServer(process.env)
	if (!started.ok) {
		process.stderr.write(`${started.line}\n`)
		process.exit(2)
	}
	const { config, instance, url } = started
	const { app, ctx, close } = instance
	// What was loaded, not what was asked for: a plugin that cannot load with this config is skipped.
	const plugins = 'plugins' in instance ? instance.plugins : []
	ctx.log.info('listening', { url, role: config.role, plugins })
	let stopping = false
	const stop = async (signal: string) => {
		if (stopping) return
		stopping = true
		ctx.log.info('stopping', { signal })
		const code = await shutDown(
			{
				stopListening: () => app.stop(false),
				goAway: 'goAway' in instance ? instance.goAway : undefined,
				close,
			},
			config.shutdownTimeoutMs,
			ctx.log,
		)
		process.exit(code)
	}
	process.on('SIGTERM', () => void stop('SIGTERM'))
	process.on('SIGINT', () => void stop('SIGINT'))
	if (config.gateways.index !== undefined)
		(await import('../fleet/child')).reportToParent(() => void stop('parent gone'))
}

/** Applies the migrations to the configured database and leaves. */
async function migrate() {
	const { migrateOnly } = await import('./migrate')
	const outcome = await migrateOnly(process.env)
	process.stdout.write(`${outcome.line}\n`)
	if (!outcome.ok) process.exit(2)
}

/** `backup PATH` and `restore PATH` (docs/operator.md#backups): one line either way. */
async function backupOrRestore(kind: 'backup' | 'restore', path: string) {
	const outcome =
		kind === 'backup'
			? await (await import('../server/backup/backup')).backup(process.env, path)
			: await (await import('../server/backup/restore')).restore(process.env, path)
	;(outcome.ok ? process.stdout : process.stderr).write(`${outcome.line}\n`)
	if (!outcome.ok) process.exit(2)
}

async function main() {
	const command = parseCommand(process.argv.slice(2))
	if (command.kind === 'supervisor-child') {
		// The child reads only what its parent handed it: no `.env`, no umask games.
		await import('./supervisor-child')
		return
	}
	if (command.kind === 'help') return void process.stdout.write(USAGE)
	if (command.kind === 'version') return void process.stdout.write(`${await versionLine()}\n`)
	if (command.kind === 'unknown') {
		process.stderr.write(`${command.line}\n`)
		process.exit(2)
	}
	// Everything the server writes (database, secrets, TDLib folders, uploads) is for its own user:
	// sessions and tokens in the database must not be readable by other local accounts.
	process.umask(0o077)
	if (bundled()) {
		// Bun reads `.env` for `npm start`; the binary is built not to (so its child cannot) and reads it here.
		try {
			loadDotenv('.env', process.env)
		} catch (err) {
			process.stderr.write(`${failureLine(err)}\n`)
			process.exit(2)
		}
	}
	if (command.kind === 'migrate') return migrate()
	if (command.kind === 'backup' || command.kind === 'restore')
		return backupOrRestore(command.kind, command.path)
	return serve()
}

// No top-level await: the binary is compiled to bytecode as CommonJS (a third of the start time).
main().catch((err) => {
	process.stderr.write(`${failureLine(err)}\n`)
	process.exit(2)
})
