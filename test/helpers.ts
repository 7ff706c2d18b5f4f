import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type App, type CreateAppOptions, createApp } from '../src/app'
import { type Config, loadConfig } from '../src/config'
import { createLogger } from '../src/logger'

export interface TestInstance extends App {
	config: Config
	dataDir: string
	/** Base URL of the real HTTP server on 127.0.0.1 (port chosen by the OS). */
	url: string
	/** Stops the server, closes the app and deletes its data folder. */
	stop(): Promise<void>
}

/**
 * One app on its own temporary libSQL file and data folder, served on port 0 (better-auth's
 * getTestInstance). `env` overrides environment variables; tests never read the real environment.
 */
export async function getTestInstance(
	env: Record<string, string> = {},
	opts: CreateAppOptions & { listen?: boolean } = {},
): Promise<TestInstance> {
	const dataDir = mkdtempSync(join(tmpdir(), 'ubg-test-'))
	const config = loadConfig({
		DATA_DIR: dataDir,
		LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
		TDLIB_BACKEND: 'emulator',
		PORT: '0',
		...env,
	})
	let instance: App
	try {
		instance = await createApp(config, { logger: createLogger(config.logLevel), ...opts })
	} catch (err) {
		rmSync(dataDir, { recursive: true, force: true })
		throw err
	}
	let url = ''
	if (opts.listen !== false) {
		instance.app.listen({ port: 0, hostname: '127.0.0.1' })
		url = `http://127.0.0.1:${instance.app.server?.port}`
		// The server's own origin is what the CSRF check trusts.
		config.publicUrl = url
	}
	return {
		...instance,
		config,
		dataDir,
		url,
		async stop() {
			await instance.app.stop(true)
			await instance.close()
			rmSync(dataDir, { recursive: true, force: true })
		},
	}
}
