import { RuntimeError } from '../telegram/types'
import type { Logger } from '../util/logger'
import type { StartClientOptions } from './types'

/** Sends one `start` to the child and resolves with the client's authorization state. */
export type StartRequest = (userbotId: number, opts: StartClientOptions) => Promise<unknown>

const diedMeanwhile = (err: unknown) => err instanceof RuntimeError && err.code === 'runtime_down'

/**
 * The clients the parent has started, remembered so that a new child can start them again after a
 * crash: each comes back from its own database, logged in as before. Also the last authorization
 * state seen for each. A client whose start fails is forgotten, unless the failure was the child
 * dying: then the next child starts it.
 */
export class StartedClients {
	private readonly started = new Map<number, StartClientOptions>()
	private readonly states = new Map<number, string>()

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

	async start(userbotId: number, opts: StartClientOptions, send: StartRequest): Promise<string> {
		this.started.set(userbotId, { ...opts })
		try {
			const state = String(await send(userbotId, opts))
			this.states.set(userbotId, state)
			return state
		} catch (err) {
			if (!diedMeanwhile(err)) this.started.delete(userbotId)
			throw err
		}
	}

	forget(userbotId: number): void {
		this.started.delete(userbotId)
		this.states.delete(userbotId)
	}

	/** A state the child reported: `Closed` ends the client; others count for clients still wanted. */
	onState(userbotId: number, state: string): void {
		if (state === 'authorizationStateClosed') this.forget(userbotId)
		else if (this.started.has(userbotId)) this.states.set(userbotId, state)
	}

	/** Starts every remembered client in a new child; `done` settles when each has answered. */
	restore(send: StartRequest): { count: number; done: Promise<void> } {
		const all = [...this.started].map(([userbotId, opts]) =>
			send(userbotId, opts).then(
				(state) => {
					this.states.set(userbotId, String(state))
				},
				(err: Error) => {
					this.log.warn('client not restored', { userbotId, error: err })
					if (!diedMeanwhile(err)) this.started.delete(userbotId)
				},
			),
		)
		return { count: all.length, done: Promise.all(all).then(() => undefined) }
	}
}
