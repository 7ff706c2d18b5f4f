import type { Backend } from './types'

export type { Backend, BackendClient, ClientOptions } from './types'

/** What the emulator's backend is opened with (src/emulator/backend.ts). */
export interface EmulatorBackendOptions {
	/**
	 * The data folder whose `tdlib/emulator` keeps the one emulated cloud of the deployment. Without
	 * it the emulator's world lives in this process's memory only.
	 */
	dataDir?: string
	/** The emulator: its flood limits (`EMULATOR_FLOOD_LIMITS`, src/emulator/flood.ts). */
	emulatorFloodLimits?: string
	/** Where the emulated cloud reports (the supervisor child's log messages). */
	log?: (level: 'info' | 'warn' | 'error', msg: string, fields?: Record<string, unknown>) => void
}

/**
 * Opens the emulator's backend. The emulator implements the runtime's `Backend` and is built on the
 * runtime, so the runtime never imports it: the child's entry (src/entry/supervisor-child.ts) hands
 * this in.
 */
export type OpenEmulator = (opts: EmulatorBackendOptions) => Promise<Backend>

export interface BackendOptions extends EmulatorBackendOptions {
	backend: 'tdlib' | 'emulator'
	apiId?: number
	apiHash?: string
	/** Sends `setNetworkType(networkTypeNone)` first in every real client: no traffic leaves the machine. */
	offline: boolean
	/** Where a compiled binary copies its embedded libtdjson (dlopen needs a real file). */
	cacheDir?: string
	/** The emulator's backend, as the process's entry gives it; absent, `TDLIB_BACKEND=emulator` cannot start. */
	openEmulator?: OpenEmulator
}

export async function createBackend(opts: BackendOptions): Promise<Backend> {
	if (opts.backend === 'emulator') {
		if (!opts.openEmulator) throw new Error('this process was started without the emulator')
		return opts.openEmulator({
			dataDir: opts.dataDir,
			emulatorFloodLimits: opts.emulatorFloodLimits,
			log: opts.log,
		})
	}
	const { createTdlibBackend } = await import('./tdlib')
	if (opts.apiId === undefined || opts.apiHash === undefined) {
		throw new Error('TELEGRAM_API_ID and TELEGRAM_API_HASH must be set for the tdlib backend')
	}
	const { tdjsonPath } = await import('./tdjson')
	return createTdlibBackend({
		apiId: opts.apiId,
		apiHash: opts.apiHash,
		offline: opts.offline,
		tdjson: await tdjsonPath(opts.cacheDir),
	})
}
