import type { Backend, TdRequest } from '../runtime/telegram/types'
import { createEmulatorClient } from './client'
import { createSeededWorld } from './seed'
import { readAuth, writeAuth } from './session'
import type { EmulatorRequest } from './test-requests'
import type { World } from './world'

/**
 * The emulator backend: a stand-in for the Telegram cloud that answers TDLib's JSON API with
 * TDLib-shaped objects and TDLib-worded errors; one session per client (`client.ts`). To grow it,
 * add handlers to a group file or a new group.
 *
 * Two ways to hold its world: `createEmulatorBackend(world?)` keeps one in this process's memory
 * (unit tests: the world is theirs to look at); `createCloudBackend` (`cloud/`), what a supervisor
 * child runs, shares one world kept in `DATA_DIR/tdlib/emulator` by every child and shard of a
 * deployment, as Telegram's cloud is one for every device.
 */
export { SEED_CHATS, SEED_USERS } from './seed'
export type { EmulatorRequest } from './test-requests'

/** Types an emulator-only request as a TDLib one, for `runtime.invoke` in tests. */
export const emulatorRequest = (r: EmulatorRequest) => r as unknown as TdRequest<'testCallEmpty'>

/** A world in this process's memory, gone with it: the emulator of unit tests. */
export function createEmulatorBackend(world: World = createSeededWorld()): Backend {
	return {
		name: 'emulator',
		createClient: (_userbotId, opts) =>
			createEmulatorClient(world, {
				readAuth: () => readAuth(opts.databaseDirectory),
				filesDirectory: opts.filesDirectory,
				persist: (auth) => writeAuth(opts.databaseDirectory, auth),
			}),
	}
}
