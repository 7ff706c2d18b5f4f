import type { Logger } from '../../common/util/logger'
import { RuntimeError } from '../telegram/types'
import type { StartClientOptions } from './types'

/** Sends one `start` to the child and resolves with the client's authorization state. */
export type StartRequest = (userbotId: number, opts: StartClientOptions) => Promise<unknown>

const diedMeanwhile = (err: unknown) => err instanceof RuntimeError && err.code === 'runtime_down'
/** Its folder is still locked by another process: it runs there until that one lets go. */
const heldElsewhere = (err: unknown) => err instanceof RuntimeError && err.code === 'held_elsewhere'

/** How soon a start refused for a folder held elsewhere is tried again: doubling up to a second. */
const FOLDER_RETRY_MIN_MS = 100
const FOLDER_RETRY_MAX_MS = 1_000

/**
 * The clients the parent has started, remembered so that a new child can start them again after a
 * crash: each comes back from its own database, logged in as before. Also the last authorization
 * state seen for each. A client whose start fails is forgotten, unless the failure was the child
 * dying: then the next child starts it. A start refused because another process still holds the
 * client's folder (TDLib's lock: docs/shards.md#one-owner-per-account) is kept too, and tried again
 * until that process lets go (or the client is stopped); meanwhile the client is `held`.
 */
export class StartedClients {
	private readonly started = new Map<number, StartClientOptions>()
	private readonly states = new Map<number, string>()
	/** Clients waiting for another process to let go of their folder, each with its retry's token. */
	private readonly held = new Map<number, symbol>()

	constructor(private readonly log: Logger) {}

	get size(): number {
		return this.started.size
	}

	/** The clients started (and wanted again after a crash). */
	ids(): number[] {
		return [...this.started.keys()]
	}

	has(userbotId: number): boolean {
		return this.started.has(userbotId)
	}

	state(userbotId: number): string | undefined {
		return this.states.get(userbotId)
	}

	/** Whether its folder is held by another process, its start waiting for that one to let go. */
	isHeld(userbotId: number): boolean {
		return this.held.has(userbotId)
	}

	async start(userbotId: number, opts: StartClientOptions, send: StartRequest): Promise<string> {
		this.started.set(userbotId, { ...opts })
		try {
			const state = String(await send(userbotId, opts))
			this.states.set(userbotId, state)
			return state
		} catch (err) {
			this.failed(userbotId, err, send)
			throw err
		}
	}

	/** What a failed start leaves: kept if the child died or the folder is held elsewhere, else forgotten. */
	private failed(userbotId: number, err: unknown, send: StartRequest): void {
		if (heldElsewhere(err)) this.awaitFolder(userbotId, send)
		else if (!diedMeanwhile(err)) this.started.delete(userbotId)
	}

	/** Tries the start again, a little later each time, until the folder is free here or it is forgotten. */
	private awaitFolder(userbotId: number, send: StartRequest): void {
		if (this.held.has(userbotId)) return
		const token = Symbol(`userbot ${userbotId}`)
		this.held.set(userbotId, token)
		const retry = async () => {
			for (let delay = FOLDER_RETRY_MIN_MS; ; delay = Math.min(2 * delay, FOLDER_RETRY_MAX_MS)) {
				await Bun.sleep(delay)
				const opts = this.started.get(userbotId)
				if (!opts || this.held.get(userbotId) !== token) return
				try {
					this.states.set(userbotId, String(await send(userbotId, opts)))
					return
				} catch (err) {
					if (heldElsewhere(err) || diedMeanwhile(err)) continue
					this.log.warn('client not started once its folder was free', { userbotId, error: err as Error })
					this.started.delete(userbotId)
					return
				}
			}
		}
		void retry().finally(() => {
			if (this.held.get(userbotId) === token) this.held.delete(userbotId)
		})
	}

	forget(userbotId: number): void {
		this.started.delete(userbotId)
		this.states.delete(userbotId)
		this.held.delete(userbotId)
	}

	/** A state the child reported: `Closed` ends the client; others count for clients still wanted. */
	onState(userbotId: number, state: string): void {
		if (state === 'authorizationStateClosed') {
			this.forget(userbotId)
			return
		}
		// A state of its own: its client runs now, its folder no longer held elsewhere (TDLib's first
		// state, before it has tried the folder, says nothing of that).
		if (state !== 'authorizationStateWaitTdlibParameters') this.held.delete(userbotId)
		if (this.started.has(userbotId)) this.states.set(userbotId, state)
	}

	/** Starts every remembered client in a new child; `done` settles when each has answered. */
	restore(send: StartRequest): { count: number; done: Promise<void> } {
		const all = [...this.started].map(([userbotId, opts]) =>
			send(userbotId, opts).then(
				(state) => {
					this.states.set(userbotId, String(state))
				},
				(err: Error) => {
					if (heldElsewhere(err)) return this.awaitFolder(userbotId, send)
					this.log.warn('client not restored', { userbotId, error: err })
					if (!diedMeanwhile(err)) this.started.delete(userbotId)
				},
			),
		)
		return { count: all.length, done: Promise.all(all).then(() => undefined) }
	}
}
