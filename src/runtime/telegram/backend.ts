import { join } from 'node:path'
import { prepareNetwork } from './proxy'
import type { Backend, TdRequest } from './types'

export type { Backend, BackendClient, ClientOptions } from './types'

export interface BackendOptions {
	backend: 'tdlib' | 'emulator'
	apiId?: number
	apiHash?: string
	/** Sends `setNetworkType(networkTypeNone)` first in every real client: no traffic leaves the machine. */
	offline: boolean
	/** Where a compiled binary copies its embedded libtdjson (dlopen needs a real file). */
	cacheDir?: string
	/**
	 * The emulator: the data folder whose `tdlib/emulator` keeps the one emulated cloud of the
	 * deployment. Without it the emulator's world lives in this process's memory only.
	 */
	dataDir?: string
	/** Where the emulated cloud reports (the supervisor child's log messages). */
	/** The emulator: its flood limits (`EMULATOR_FLOOD_LIMITS`, src/emulator/flood.ts). */
	emulatorFloodLimits?: string
	log?: (level: 'info' | 'warn' | 'error', msg: string, fields?: Record<string, unknown>) => void
}

export async function createBackend(opts: BackendOptions): Promise<Backend> {
	if (opts.backend === 'emulator') {
		let backend: Backend
		if (opts.dataDir === undefined) {
			const { createEmulatorBackend } = await import('../../emulator')
			backend = createEmulatorBackend()
		} else {
			const { createCloudBackend } = await import('../../emulator/cloud')
			backend = await createCloudBackend({ dir: join(opts.dataDir, 'tdlib', 'emulator'), log: opts.log })
		}
		// Always on: without limits it still plays the bans and spam restrictions of the emulator's controls.
		const { parseEmulatorFloodLimits, withFloodLimits } = await import('../../emulator/flood')
		const { withFaults } = await import('../../emulator/faults')
		const flood = parseEmulatorFloodLimits(opts.emulatorFloodLimits ?? '')
		const { withFolderLock } = await import('./locked-client')
		const createClient = backend.createClient.bind(backend)
		const emulated = (...args: Parameters<Backend['createClient']>) => {
			const client = withFaults(withFloodLimits(createClient(...args), flood))
			// The emulated cloud needs no network held: the proxy is only listed, as TDLib would.
			const proxy = args[1].proxy
			if (!proxy) return client
			const network = prepareNetwork((r) => client.invoke(r as TdRequest), proxy, false)
			network.catch(() => undefined)
			return Object.assign(client, { network })
		}
		return Object.assign(backend, {
			// Its folder locked as real TDLib locks it: one process at a time (binlog-lock.ts).
			createClient: (...args: Parameters<Backend['createClient']>) =>
				withFolderLock(() => emulated(...args), args[1].databaseDirectory),
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
