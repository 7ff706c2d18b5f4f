import { READY_MESSAGE } from './gateways'

/**
 * In a gateway started by `GATEWAYS=N` (src/fleet/gateways.ts): tells the parent it listens, and stops
 * when the parent is gone (its IPC channel closes, even on SIGKILL), so no gateway outlives the
 * command that started it.
 */
export function reportToParent(onParentGone: () => void): void {
	if (!process.send) return
	process.send({ type: READY_MESSAGE })
	process.on('disconnect', onParentGone)
}
