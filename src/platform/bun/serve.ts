import { chmodSync } from 'node:fs'
import type { App, CreateAppOptions } from '../../app'
import type { ShardApp } from '../../app/shard'
import { createLogger } from '../../common/util/logger'
import { type Config, ConfigError, loadConfig } from '../../server/config'

/**
 * Starting the server, shared by `npm start` and `npm run demo`: the configuration, the app, the
 * port. Every way this can fail is one an operator can meet (a bad variable, an unwritable or
 * broken database, two commands of one name, a port in use) and ends as one line, `configuration
 * error: ...` or `startup error: ...`, for the caller to print before exiting with 2: never a
 * stack, never a query's parameters.
 */
export type StartOutcome =
	| { ok: true; config: Config; instance: App | ShardApp; url: string }
	| { ok: false; line: string }

export interface StartOptions extends CreateAppOptions {
	/** Fixed values over the environment (the demo's emulator and data folder). */
	overrides?: Record<string, string>
	/** Where the log's lines go instead of stderr, at the configured level (the demo holds them back). */
	logWrite?: (line: string) => void
}

export async function startServer(
	env: Record<string, string | undefined>,
	opts: StartOptions = {},
): Promise<StartOutcome> {
	let config: Config
	try {
		config = loadConfig({ ...env, ...opts.overrides })
	} catch (err) {
		return { ok: false, line: failureLine(err) }
	}
	let instance: App | ShardApp | undefined
	if (opts.logWrite && !opts.logger)
		opts = { ...opts, logger: createLogger(config.logLevel, {}, opts.logWrite) }
	try {
		// A busy port is known before anything starts (supervisors, restored userbots): a second
		// server of one DATA_DIR must not run its accounts only to find it cannot serve them.
		if (!config.reusePort && config.port !== 0) probePort(config.host, config.port)
		// Loaded once the configuration is known good, so a bad value fails fast with its one line.
		if (config.role === 'shard') {
			// Supervisors on the bus only: no database, no REST, no WebSocket; `/health` on PORT.
			const { createShardApp } = await import('../../app/shard')
			instance = await createShardApp(config, opts)
		} else {
			const { createApp } = await import('../../app')
			instance = await createApp(config, opts)
		}
		// Sessions and tokens in the database are for this user alone.
		chmodSync(config.dataDir, 0o700)
		try {
			// Elysia listens with SO_REUSEPORT unless told otherwise: a second server on a busy port would
			// come up without a word and take half the clients. Sharing is the operator's choice.
			instance.app.listen({ port: config.port, hostname: config.host, reusePort: config.reusePort })
		} catch (err) {
			throw listenError(config.host, config.port, err)
		}
		const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host
		return { ok: true, config, instance, url: `http://${host}:${instance.app.server?.port ?? config.port}` }
	} catch (err) {
		await instance?.close().catch(() => undefined)
		return { ok: false, line: failureLine(err) }
	}
}

class ListenError extends Error {
	override name = 'ListenError'
}

function listenError(host: string, port: number, err: unknown): ListenError {
	const why = (err as { code?: unknown }).code === 'EADDRINUSE' ? 'port in use' : oneLine(err)
	return new ListenError(`cannot listen on ${host}:${port}: ${why}`)
}

/**
 * Listens on the port without SO_REUSEPORT and lets go at once; throws when it is taken. Returns the
 * port it had (the free one the system gave for 0).
 */
export function probePort(host: string, port: number): number {
	try {
		const server = Bun.serve({
			hostname: host,
			port,
			reusePort: false,
			fetch: () => new Response(null, { status: 503 }),
		})
		const had = server.port ?? port
		server.stop(true)
		return had
	} catch (err) {
		throw listenError(host, port, err)
	}
}

/** The one line a failed start prints. */
export function failureLine(err: unknown): string {
	if (err instanceof ConfigError) return `configuration error: ${err.message}`
	return `startup error: ${oneLine(err)}`
}

const MAX_LINE = 300

/**
 * An error as one line of its own words: a query error's message carries the SQL and its bound
 * parameters, so the driver's cause speaks for it; anything past the first line is dropped.
 */
export function oneLine(err: unknown): string {
	let e = err
	if (e instanceof Error && isQueryError(e) && e.cause instanceof Error) e = e.cause
	const text = e instanceof Error ? e.message : String(e)
	const first = (text.split(/\r?\n/)[0] ?? '').trim() || (e instanceof Error ? e.name : 'unknown error')
	return first.length > MAX_LINE ? `${first.slice(0, MAX_LINE)}...` : first
}

function isQueryError(error: Error): boolean {
	return ('query' in error && 'params' in error) || error.message.startsWith('Failed query')
}
