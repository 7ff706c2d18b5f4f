import { join } from 'node:path'
import type { EmulatorBackendOptions } from '../runtime/telegram/backend'
import { withFolderLock } from '../runtime/telegram/locked-client'
import { prepareNetwork } from '../runtime/telegram/proxy'
import type { Backend, TdRequest } from '../runtime/telegram/types'
import { withFaults } from './faults'
import { parseEmulatorFloodLimits, withFloodLimits } from './flood'

/**
 * The emulator as a supervisor child's backend (`TDLIB_BACKEND=emulator`), handed to the runtime's
 * backend chooser by the child's entry (src/entry/supervisor-child.ts): the emulator implements the
 * runtime's `Backend`, so it is built on the runtime, never imported by it. With a data folder, the
 * one emulated cloud of the deployment (`DATA_DIR/tdlib/emulator`); without, a world in this
 * process's memory.
 */
export async function createEmulatedBackend(opts: EmulatorBackendOptions): Promise<Backend> {
	let backend: Backend
	if (opts.dataDir === undefined) {
		const { createEmulatorBackend } = await import('.')
		backend = createEmulatorBackend()
	} else {
		const { createCloudBackend } = await import('./cloud')
		backend = await createCloudBackend({ dir: join(opts.dataDir, 'tdlib', 'emulator'), log: opts.log })
	}
	// Always on: without limits it still plays the bans and spam restrictions of the emulator's controls.
	const flood = parseEmulatorFloodLimits(opts.emulatorFloodLimits ?? '')
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
