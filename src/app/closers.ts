import type { Logger } from '../common/util/logger'

/** Something an app holds and lets go of when it closes. */
export type Closer = () => Promise<void> | void

/**
 * The closers of one app (createApp, createShardApp), pushed as each part starts: `closeAll` runs
 * them last first, each one even when one before it failed (a warning line), and empties the list.
 */
export function closerStack(log: Logger): { closers: Closer[]; closeAll(): Promise<void> } {
	const closers: Closer[] = []
	const closeAll = async () => {
		for (const close of closers.reverse()) {
			try {
				await close()
			} catch (err) {
				log.warn('error while closing', { error: err instanceof Error ? err : String(err) })
			}
		}
		closers.length = 0
	}
	return { closers, closeAll }
}
