import { runSupervisorChild } from '../runtime/supervisor/child'

/**
 * The supervisor child's start (`main.ts supervisor-child`): the runtime's child, given the emulator
 * it runs for `TDLIB_BACKEND=emulator`. The emulator implements the runtime's backend and is built on
 * it, so it is wired here, above both; a child of real TDLib never loads it.
 */
runSupervisorChild({
	openEmulator: async (opts) => (await import('../emulator/backend')).createEmulatedBackend(opts),
})
