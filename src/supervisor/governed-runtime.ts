import type { Clock } from '../flood/clock'
import { FloodGovernor, FloodRefused, retryAfterOf } from '../flood/governor'
import { HealthBoard } from '../flood/health'
import { CLASS_METHODS, classOfMethod, type FloodClass, type FloodLimits } from '../flood/limits'
import { FULL_INFO, SlowModes } from '../flood/slow-mode'
import { RuntimeError, TdError, type TdMethod, type TdRequest, type TdResult } from '../telegram/types'
import type { Logger } from '../util/logger'
import type { LocalRuntime } from '.'
import type { InvokeOptions, RuntimeEvent, StartClientOptions } from './types'

/**
 * The runtime of the process that owns the accounts' requests (the one process without a bus, each
 * shard with one), with the flood governor in front of its clients and each account's health
 * followed: the gateway never paces by itself, and two gateways sending for one account meet at the
 * same governor. docs/flood-and-health.md tells the whole.
 */
export interface GovernedOptions {
	/** null: the governor is off (FLOOD_LIMITS=off); health is followed anyway. */
	limits: FloodLimits | null
	maxWaitMs: number
	warmupMs: number
	/** The flood class a sender declares (a command's `flood`, by its name). */
	classOf(label: string | undefined): FloodClass | undefined
	commandTimeoutMs: number
	clock: Clock
	log: Logger
	/** The governor's margin over the limits (src/flood/governor.ts). */
	margin?: number
}

const SEND_FAILED = 'updateMessageSendFailed'
/** TDLib tells a frozen account (and its end) with this; always asked of the child, like SEND_FAILED. */
const FREEZE = 'updateFreezeState'
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
/** Time left for the request itself once its wait is over. */
const SEND_ALLOWANCE_MS = 1000

export type GovernedRuntime = LocalRuntime & {
	readonly governor: FloodGovernor | null
	readonly statuses: HealthBoard
}

export function governRuntime(inner: LocalRuntime, opts: GovernedOptions): GovernedRuntime {
	const governor = opts.limits
		? new FloodGovernor({
				margin: opts.margin,
				limits: opts.limits,
				maxWaitMs: opts.maxWaitMs,
				warmupMs: opts.warmupMs,
				clock: opts.clock,
			})
		: null
	const listeners = new Set<(e: RuntimeEvent) => void>()
	const emit = (e: RuntimeEvent) => {
		for (const l of listeners) l(e)
	}
	const health = new HealthBoard(opts.clock, (userbotId, change) =>
		emit({ type: 'userbot_status', userbotId, ...change }),
	)
	/** Kinds the layer above asked for; `updateMessageSendFailed` is always asked of the child. */
	let wanted: ReadonlySet<string> = new Set()
	/** Clients being stopped here: their closing is ours, not a revocation. */
	const stopping = new Set<number>()
	const started = new Set<number>()
	const lastState = new Map<number, string>()
	/** Accounts TDLib last said are frozen (`updateFreezeState`, or a `FROZEN_*` answer). */
	const frozen = new Set<number>()

	const pause = (userbotId: number, cls: FloodClass, seconds: number) => {
		if (!governor) return
		const until = governor.pause(userbotId, cls, seconds)
		if ((health.status(userbotId) ?? 'active') === 'active' || health.status(userbotId) === 'cooling_down')
			health.set(userbotId, 'cooling_down', { untilMs: governor.pausedUntil(userbotId) ?? until })
	}

	/** What an error says of the account. */
	const observe = (userbotId: number, method: string, cls: FloodClass | undefined, err: unknown) => {
		if (!(err instanceof TdError) || err instanceof FloodRefusedTd) return
		const msg = err.message
		if (err.code === 429) {
			const seconds = retryAfterOf(msg)
			const c = classOfMethod(method) ?? cls
			if (seconds !== undefined && c) pause(userbotId, c, seconds)
		} else if (msg === 'PEER_FLOOD') health.set(userbotId, 'limited')
		else if (msg.startsWith('FROZEN_')) {
			frozen.add(userbotId)
			health.set(userbotId, 'frozen')
		} else if (msg === 'USER_DEACTIVATED' || msg === 'USER_DEACTIVATED_BAN') {
			health.set(userbotId, 'banned')
			// Stopped, and never started again (a new child does not restore it either).
			stopping.add(userbotId)
			void inner
				.stopClient(userbotId, { logOut: false, removeData: false })
				.catch(() => undefined)
				.finally(() => stopping.delete(userbotId))
			started.delete(userbotId)
		} else if (msg === 'AUTH_KEY_UNREGISTERED' || msg === 'SESSION_REVOKED') health.set(userbotId, 'revoked')
	}

	/** Slow modes of supergroups, for the governor; a look of its own is labelled as such. */
	const slowModes = governor
		? new SlowModes(governor, (userbotId, supergroup_id, timeoutMs) =>
				inner.invoke(
					userbotId,
					{ _: 'getSupergroupFullInfo', supergroup_id },
					{ timeoutMs, label: 'flood:slow_mode' },
				),
			)
		: undefined

	const onState = (userbotId: number, state: string) => {
		const previous = lastState.get(userbotId)
		lastState.set(userbotId, state)
		if (state === 'authorizationStateReady') {
			if (previous !== undefined && LOG_IN_STEPS.has(previous)) {
				governor?.loggedIn(userbotId)
				health.set(userbotId, 'active', { force: true })
			} else if (health.status(userbotId) !== 'cooling_down')
				// A client started again is as frozen as it was: only TDLib's `updateFreezeState` ends a freeze.
				health.set(userbotId, frozen.has(userbotId) ? 'frozen' : 'active')
		} else if (LOGGING_OUT.has(state) && !stopping.has(userbotId) && started.has(userbotId)) {
			// Closing by itself: the session was ended elsewhere (or the account was deactivated).
			health.set(userbotId, 'revoked')
		}
	}

	inner.onEvent((e) => {
		if (e.type === 'authorization_state') onState(e.userbotId, e.state)
		if (e.type === 'runtime_down') for (const id of e.userbotIds) health.set(id, 'restarting')
		if (e.type === 'update' && e.update._ === FULL_INFO) {
			slowModes?.onUpdate(e.userbotId, e.update)
			if (!wanted.has(FULL_INFO)) return
		}
		if (e.type === 'update' && e.update._ === FREEZE) {
			if (e.update.is_frozen === true) {
				frozen.add(e.userbotId)
				health.set(e.userbotId, 'frozen')
			} else if (frozen.delete(e.userbotId) && health.status(e.userbotId) === 'frozen')
				health.set(e.userbotId, 'active')
			if (!wanted.has(FREEZE)) return
		}
		if (e.type === 'update' && e.update._ === SEND_FAILED) {
			const u = e.update as {
				error?: { code?: number; message?: string }
				message?: { sending_state?: { retry_after?: number } }
			}
			if (u.error?.code === 429) {
				const seconds = Math.ceil(
					u.message?.sending_state?.retry_after ?? retryAfterOf(u.error.message ?? '') ?? 0,
				)
				if (seconds > 0) pause(e.userbotId, 'send', seconds)
			} else if (u.error?.message === 'PEER_FLOOD') health.set(e.userbotId, 'limited')
			if (!wanted.has(SEND_FAILED)) return
		}
		emit(e)
	})

	const commandTimeoutMs = opts.commandTimeoutMs

	async function paced<M extends TdMethod>(
		userbotId: number,
		request: TdRequest<M>,
		o: InvokeOptions | undefined,
		cls: FloodClass,
	): Promise<TdResult<M>> {
		const g = governor as FloodGovernor
		const start = opts.clock.now()
		const timeoutMs = o?.timeoutMs ?? commandTimeoutMs
		const chatId = (request as { chat_id?: unknown }).chat_id
		// A message to a supergroup not looked at yet: its slow mode first (once per account and chat).
		if (cls === 'send' && typeof chatId === 'number')
			await slowModes?.known(userbotId, chatId, Math.max(1, timeoutMs - SEND_ALLOWANCE_MS))
		try {
			await g.admit(
				userbotId,
				cls,
				typeof chatId === 'number' ? chatId : undefined,
				Math.max(0, timeoutMs - SEND_ALLOWANCE_MS),
			)
		} catch (err) {
			if (err instanceof FloodRefused) throw new FloodRefusedTd(err.retryAfter)
			throw err
		}
		if (o?.signal?.aborted) throw new RuntimeError('timeout', 'aborted')
		const left = Math.max(1, Math.ceil(timeoutMs - (opts.clock.now() - start)))
		return inner.invoke(userbotId, request, { ...o, timeoutMs: left })
	}

	const governed: GovernedRuntime = {
		governor,
		statuses: health,
		get pid() {
			return inner.pid
		},
		fence: (ms) => inner.fence(ms),
		invoke<M extends TdMethod>(
			userbotId: number,
			request: TdRequest<M>,
			o?: InvokeOptions,
		): Promise<TdResult<M>> {
			const cls = opts.classOf(o?.label)
			const counted = governor && cls && CLASS_METHODS[cls].has(request._)
			const p = counted ? paced(userbotId, request, o, cls) : inner.invoke(userbotId, request, o)
			if (slowModes && request._ === 'getSupergroupFullInfo')
				void p.then(
					(info) => slowModes.onAnswer(userbotId, request, info),
					() => undefined,
				)
			return p.catch((err: unknown) => {
				observe(userbotId, request._, cls, err)
				throw err
			})
		},
		async startClient(userbotId: number, o: StartClientOptions): Promise<string> {
			// A deactivated account is not started again (this process remembers it until it restarts).
			if (health.status(userbotId) === 'banned')
				throw new RuntimeError('unavailable', 'the account is banned')
			started.add(userbotId)
			let state: string
			try {
				state = await inner.startClient(userbotId, o)
			} catch (err) {
				// No room for it (docs/capacity.md): the account is told `stopped`, beside the refusal.
				if (err instanceof RuntimeError && err.code === 'capacity') {
					started.delete(userbotId)
					health.set(userbotId, 'stopped')
				}
				throw err
			}
			// Started after all: a `stopped` of a refusal is over.
			if (health.status(userbotId) === 'stopped') health.set(userbotId, 'active')
			lastState.set(userbotId, state)
			// Only a logged-in client says the account is well: one waiting for a log-in (a new userbot,
			// or one revoked before a restart) leaves the stored status as it is until it logs in.
			if (state === 'authorizationStateReady') health.set(userbotId, 'active', { force: true })
			return state
		},
		async stopClient(userbotId, o) {
			stopping.add(userbotId)
			started.delete(userbotId)
			try {
				await inner.stopClient(userbotId, o)
			} finally {
				stopping.delete(userbotId)
			}
			health.set(userbotId, 'stopped', { force: true })
			lastState.delete(userbotId)
			frozen.delete(userbotId)
			governor?.forget(userbotId)
			slowModes?.forget(userbotId)
			health.forget(userbotId)
		},
		authorizationState: (userbotId) => inner.authorizationState(userbotId),
		heldElsewhere: (userbotId) => inner.heldElsewhere?.(userbotId) ?? false,
		onEvent(listener) {
			listeners.add(listener)
			return () => listeners.delete(listener)
		},
		setUpdateFilter(kinds) {
			wanted = new Set(kinds)
			inner.setUpdateFilter([...new Set([...kinds, SEND_FAILED, FREEZE, FULL_INFO])])
		},
		onRequest: (listener) => inner.onRequest(listener),
		health: () => inner.health(),
		close: () => inner.close(),
	}
	return inFrontOf(inner, governed)
}

/**
 * The governed runtime stands in front of the runtime it wraps without hiding it: what it does not
 * define itself (a sharded runtime's `shardOf`, a supervisor's own counters, its class for
 * `instanceof`) is the wrapped runtime's, read from it and called on it, so whoever looks at the
 * process's runtime (operators' tools, tests) sees the supervisors it runs.
 */
function inFrontOf(inner: LocalRuntime, governed: GovernedRuntime): GovernedRuntime {
	return new Proxy(inner, {
		get(target, prop) {
			if (prop in governed) return Reflect.get(governed, prop)
			const value: unknown = Reflect.get(target, prop, target)
			return typeof value === 'function' ? value.bind(target) : value
		},
		// What it defines itself is set on it (a test that wraps `invoke` wraps the governed one).
		set: (target, prop, value) =>
			prop in governed ? Reflect.set(governed, prop, value) : Reflect.set(target, prop, value, target),
		has: (target, prop) => prop in governed || prop in target,
	}) as GovernedRuntime
}

/** The governor's refusal as it crosses the wire: TDLib's own words for a flood wait, code 429. */
export class FloodRefusedTd extends TdError {
	constructor(readonly retryAfter: number) {
		super(429, `Too Many Requests: retry after ${retryAfter}`)
	}
}
