import { availableParallelism, cpus } from 'node:os'
import type * as tdl from 'tdl'

/**
 * TDLib's client groups, held open for the life of the process (docs/development.md#tdlibs-abort-on-close).
 *
 * TDLib 1.8.65 spreads the clients of a process over a pool of groups (`MultiImplPool` in
 * td/telegram/Client.cpp: each group a `ConcurrentScheduler` of four threads), a new client going
 * to the group with the fewest. When the last client of a group closes, the `td_receive` that
 * returns its `authorizationStateClosed` destroys the group there and then, on the caller's thread
 * (tdl's receive thread). That teardown destroys the group's schedulers while actors of the closed
 * client may still be alive, and now and then TDLib's own check of the actor pool fails and aborts
 * the process: `[ObjectPool.h:191][&storage_count_.load() == 0] 17` (seen in gdb:
 * `~ObjectPool<ActorInfo>` ← `ConcurrentScheduler::finish` ← `~MultiImpl` ←
 * `ClientManager::Impl::receive`), in about 1 of 150 processes that start and close 10 offline
 * clients one after another, each alone in its group.
 *
 * So every group gets an anchor before any client of the service exists: a bare client that never
 * receives its parameters (it opens no file and no connection, and is told `networkTypeNone`
 * anyway). A group then never becomes empty, a client's close never tears one down, and at exit
 * TDLib leaves its threads to the operating system (its `ExitGuard`), as it does for any client
 * still open.
 */

/** The groups TDLib makes: `clamp(hardware_concurrency, 8, 20) * 5 / 4` (sysconf's online CPUs). */
export function tdlibGroupCount(onlineCpus = Math.max(cpus().length, availableParallelism())): number {
	return Math.floor((Math.min(20, Math.max(8, onlineCpus)) * 5) / 4)
}

let anchors: tdl.Client[] | undefined

/**
 * Opens one anchor per group, once per process, with tdl's `createBareClient` (tdl configured).
 * Synchronous on purpose: TDLib places a client in a group at its first request, and every anchor
 * has sent its first request before the caller makes any other client, so each takes a group of
 * its own.
 */
export function anchorClientGroups(createBareClient: () => tdl.Client): void {
	if (anchors) return
	anchors = Array.from({ length: tdlibGroupCount() }, () => {
		const anchor = createBareClient()
		void anchor.invoke({ _: 'setNetworkType', type: { _: 'networkTypeNone' } }).catch(() => undefined)
		return anchor
	})
}
