import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type App, type CreateAppOptions, createApp } from '../src/app'
import { createLogger } from '../src/common/util/logger'
import { type Config, loadConfig } from '../src/server/config'

export interface TestInstance extends App {
	config: Config
	dataDir: string
	/** Base URL of the real HTTP server on 127.0.0.1 (port chosen by the OS). */
	url: string
	/** Stops serving and closes the app; the data folder stays (a restart can reopen it). */
	halt(): Promise<void>
	/** Halts, then deletes the data folder unless the caller supplied it. */
	stop(): Promise<void>
}

export interface TestInstanceOptions extends CreateAppOptions {
	listen?: boolean
	/** Reuse this data folder (a restart); the caller owns it and `stop` leaves it. */
	dataDir?: string
	/** Collects every log line (debug and up) instead of discarding them. */
	logLines?: string[]
}

/**
 * One app on its own temporary libSQL file and data folder, served on port 0 (better-auth's
 * getTestInstance). `env` overrides environment variables; tests never read the real environment.
 */
export async function getTestInstance(
	env: Record<string, string> = {},
	opts: TestInstanceOptions = {},
): Promise<TestInstance> {
	const ownsData = opts.dataDir === undefined
	const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'ubg-test-'))
	const removeData = () => {
		if (ownsData) rmSync(dataDir, { recursive: true, force: true })
	}
	const config = loadConfig({
		DATA_DIR: dataDir,
		LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
		TDLIB_BACKEND: 'emulator',
		// A test that runs real TDLib never lets it dial out, unless it says so (a proxy of its own).
		TDLIB_OFFLINE: '1',
		PORT: '0',
		// `npm test` records every shape of TDLib request for `npm run conformance`.
		...(process.env.TDLIB_REQUEST_LOG ? { TDLIB_REQUEST_LOG: process.env.TDLIB_REQUEST_LOG } : {}),
		...env,
	})
	const logLines = opts.logLines
	const logger =
		opts.logger ??
		(logLines ? createLogger('debug', {}, (line) => logLines.push(line)) : createLogger(config.logLevel))
	let instance: App
	try {
		instance = await createApp(config, { ...opts, logger })
	} catch (err) {
		removeData()
		throw err
	}
	let url = ''
	if (opts.listen !== false) {
		instance.app.listen({ port: 0, hostname: '127.0.0.1' })
		url = `http://127.0.0.1:${instance.app.server?.port}`
		// The server's own origin is what the CSRF check trusts.
		config.publicUrl = url
	}
	let halted = false
	const halt = async () => {
		if (halted) return
		halted = true
		if (opts.listen !== false) await instance.app.stop(true)
		await instance.close()
	}
	return {
		...instance,
		config,
		dataDir,
		url,
		halt,
		async stop() {
			await halt()
			removeData()
		},
	}
}

/** Every number in a JSON body, by its path: a public /health has none (docs/capacity.md#watching-it). */
export const countsIn = (value: unknown, path = ''): string[] =>
	typeof value === 'number'
		? [path]
		: value && typeof value === 'object'
			? Object.entries(value).flatMap(([k, v]) => countsIn(v, `${path}.${k}`))
			: []
