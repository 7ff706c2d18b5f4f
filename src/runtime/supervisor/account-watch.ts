import type { Clock } from '../flood/clock'
import { type FloodGovernor, retryAfterOf } from '../flood/governor'
import { HealthBoard } from '../flood/health'
import { classOfMethod, type FloodClass } from '../flood/limits'
import { FULL_INFO, type SlowModes } from '../flood/slow-mode'
import { TdError } from '../telegram/types'
import type { LocalRuntime } from '.'
import { FloodRefusedTd } from './pacing'
import type { RuntimeEvent } from './types'

export const SEND_FAILED = 'updateMessageSendFailed'
/** TDLib tells a frozen account (and its end) with this; always asked of the child, like SEND_FAILED. */
export const FREEZE = 'updateFreezeState'
const LOGGING_OUT = new Set([
	'authorizationStateLoggingOut',
	'authorizationStateClosing',
	'authorizationStateClosed',
])
const LOG_IN_STEPS = new Set([
	'authorizationStateWaitPhoneNumber',
	'authorizationStateWaitCode',
	'authorizationStateWaitPassword',
	'authorizationStateWaitOtherDeviceConfirmation',
	'authorizationStateWaitRegistration',
	'authorizationStateWaitEmailAddress',
	'authorizationStateWaitEmailCode',
])

type SendFailed = {
	error?: { code?: number; message?: string }
	message?: { sending_state?: { retry_after?: number } }
}

/**
 * Each account's health as its runtime tells it (docs/flood-and-health.md): the errors its requests
 * get, its authorization states, TDLib's freeze and send-failure updates, and the clients started
 * and stopped here. A flood wait pauses the account's class at the governor.
 */
export class AccountWatch {
	readonly health: HealthBoard
	/** Clients being stopped here: their closing is ours, not a revocation. */
	private readonly stopping = new Set<number>()
	private readonly started = new Set<number>()
	private readonly lastState = new Map<number, string>()
	/** Accounts TDLib last said are frozen (`updateFreezeState`, or a `FROZEN_*` answer). */
	private readonly frozen = new Set<number>()

	constructor(
		clock: Clock,
		emit: (e: RuntimeEvent) => void,
		private readonly inner: LocalRuntime,
		private readonly governor: FloodGovernor | null,
		private readonly slowModes: SlowModes | undefined,
	) {
		this.health = new HealthBoard(clock, (userbotId, change) =>
			emit({ type: 'userbot_status', userbotId, ...change }),
		)
	}

	private pause(userbotId: number, cls: FloodClass, seconds: number) {
		const { governor, health } = this
		if (!governor) return
		const until = governor.pause(userbotId, cls, seconds)
		if ((health.status(userbotId) ?? 'active') === 'active' || health.status(userbotId) === 'cooling_down')
			health.set(userbotId, 'cooling_down', { untilMs: governor.pausedUntil(userbotId) ?? until })
	}

	/** What an error says of the account. */
	observe(userbotId: number, method: string, cls: FloodClass | undefined, err: unknown) {
		if (!(err instanceof TdError) || err instanceof FloodRefusedTd) return
		const msg = err.message
		if (err.code === 429) {
			const seconds = retryAfterOf(msg)
			const c = classOfMethod(method) ?? cls
			if (seconds !== undefined && c) this.pause(userbotId, c, seconds)
		} else if (msg === 'PEER_FLOOD') this.health.set(userbotId, 'limited')
		else if (msg.startsWith('FROZEN_')) {
			this.frozen.add(userbotId)
			this.health.set(userbotId, 'frozen')
		} else if (msg === 'USER_DEACTIVATED' || msg === 'USER_DEACTIVATED_BAN') this.deactivated(userbotId)
		else if (msg === 'AUTH_KEY_UNREGISTERED' || msg === 'SESSION_REVOKED')
			this.health.set(userbotId, 'revoked')
	}

	/** Stopped, and never started again (a new child does not restore it either). */
	private deactivated(userbotId: number) {
		this.health.set(userbotId, 'banned')
		this.stopping.add(userbotId)
		void this.inner
			.stopClient(userbotId, { logOut: false, removeData: false })
			.catch(() => undefined)
			.finally(() => this.stopping.delete(userbotId))
		this.started.delete(userbotId)
	}

	private onState(userbotId: number, state: string) {
		const { health } = this
		const previous = this.lastState.get(userbotId)
		this.lastState.set(userbotId, state)
		if (state === 'authorizationStateReady') {
			if (previous !== undefined && LOG_IN_STEPS.has(previous)) {
				this.governor?.loggedIn(userbotId)
				health.set(userbotId, 'active', { force: true })
			} else if (health.status(userbotId) !== 'cooling_down')
				// A client started again is as frozen as it was: only TDLib's `updateFreezeState` ends a freeze.
				health.set(userbotId, this.frozen.has(userbotId) ? 'frozen' : 'active')
		} else if (LOGGING_OUT.has(state) && !this.stopping.has(userbotId) && this.started.has(userbotId)) {
			// Closing by itself: the session was ended elsewhere (or the account was deactivated).
			health.set(userbotId, 'revoked')
		}
	}

	private onFreeze(userbotId: number, isFrozen: boolean) {
		if (isFrozen) {
			this.frozen.add(userbotId)
			this.health.set(userbotId, 'frozen')
		} else if (this.frozen.delete(userbotId) && this.health.status(userbotId) === 'frozen')
			this.health.set(userbotId, 'active')
	}

	private onSendFailed(userbotId: number, u: SendFailed) {
		if (u.error?.code === 429) {
			const seconds = Math.ceil(
				u.message?.sending_state?.retry_after ?? retryAfterOf(u.error.message ?? '') ?? 0,
			)
			if (seconds > 0) this.pause(userbotId, 'send', seconds)
		} else if (u.error?.message === 'PEER_FLOOD') this.health.set(userbotId, 'limited')
	}

	/**
	 * Reads an event of the runtime; says whether it goes on to the layer above, which gets the
	 * updates read here only when it asked for them (`wanted`).
	 */
	onEvent(e: RuntimeEvent, wanted: ReadonlySet<string>): boolean {
		if (e.type === 'authorization_state') this.onState(e.userbotId, e.state)
		if (e.type === 'runtime_down') for (const id of e.userbotIds) this.health.set(id, 'restarting')
		if (e.type !== 'update') return true
		const kind = e.update._
		if (kind === FULL_INFO) this.slowModes?.onUpdate(e.userbotId, e.update)
		else if (kind === FREEZE) this.onFreeze(e.userbotId, e.update.is_frozen === true)
		else if (kind === SEND_FAILED) this.onSendFailed(e.userbotId, e.update as SendFailed)
		else return true
		return wanted.has(kind)
	}

	/** Before a start: false for a deactivated account (remembered until this process restarts). */
	starting(userbotId: number): boolean {
		if (this.health.status(userbotId) === 'banned') return false
		this.started.add(userbotId)
		return true
	}

	/** A start refused for want of room (docs/capacity.md): the account is told `stopped`. */
	noRoom(userbotId: number) {
		this.started.delete(userbotId)
		this.health.set(userbotId, 'stopped')
	}

	startedAs(userbotId: number, state: string) {
		const { health } = this
		// Started after all: a `stopped` of a refusal is over.
		if (health.status(userbotId) === 'stopped') health.set(userbotId, 'active')
		this.lastState.set(userbotId, state)
		// Only a logged-in client says the account is well: one waiting for a log-in (a new userbot,
		// or one revoked before a restart) leaves the stored status as it is until it logs in.
		if (state === 'authorizationStateReady') health.set(userbotId, 'active', { force: true })
	}

	/** Around a stop asked here: its closing is not a revocation, and afterwards all is forgotten. */
	async stop(userbotId: number, stop: () => Promise<void>) {
		this.stopping.add(userbotId)
		this.started.delete(userbotId)
		try {
			await stop()
		} finally {
			this.stopping.delete(userbotId)
		}
		this.health.set(userbotId, 'stopped', { force: true })
		this.lastState.delete(userbotId)
		this.frozen.delete(userbotId)
		this.governor?.forget(userbotId)
		this.slowModes?.forget(userbotId)
		this.health.forget(userbotId)
	}
}
