import type { Logger } from '../../common/util/logger'
import type { Clock } from '../flood/clock'
import { FloodGovernor } from '../flood/governor'
import type { HealthBoard } from '../flood/health'
import { CLASS_METHODS, type FloodClass, type FloodLimits } from '../flood/limits'
import { FULL_INFO, SlowModes } from '../flood/slow-mode'
import { RuntimeError, type TdMethod, type TdRequest, type TdResult } from '../telegram/types'
import type { LocalRuntime } from '.'
import { AccountWatch, FREEZE, SEND_FAILED } from './account-watch'
import { createPacer } from './pacing'
import type { InvokeOptions, RuntimeEvent, StartClientOptions } from './types'

export { FloodRefusedTd } from './pacing'

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
	/** The flood class a sender declares (a command's `flood`, by its name), for a request of `method`. */
	classOf(label: string | undefined, method: string): FloodClass | undefined
	commandTimeoutMs: number
	clock: Clock
	log: Logger
	/** The governor's margin over the limits (src/runtime/flood/governor.ts). */
	margin?: number
}

export type GovernedRuntime = LocalRuntime & {
	readonly governor: FloodGovernor | null
	readonly statuses: HealthBoard
}

/** The governor of `opts.limits`, and the slow modes of supergroups it learns (a look of its own is labelled). */
function floodControl(inner: LocalRuntime, opts: GovernedOptions) {
	const governor = opts.limits
		? new FloodGovernor({
				margin: opts.margin,
				limits: opts.limits,
				maxWaitMs: opts.maxWaitMs,
				warmupMs: opts.warmupMs,
				clock: opts.clock,
			})
		: null
	const slowModes = governor
		? new SlowModes(governor, (userbotId, supergroup_id, timeoutMs) =>
				inner.invoke(
					userbotId,
					{ _: 'getSupergroupFullInfo', supergroup_id },
					{ timeoutMs, label: 'flood:slow_mode' },
				),
			)
		: undefined
	return { governor, slowModes }
}

export function governRuntime(inner: LocalRuntime, opts: GovernedOptions): GovernedRuntime {
	const { governor, slowModes } = floodControl(inner, opts)
	const listeners = new Set<(e: RuntimeEvent) => void>()
	const emit = (e: RuntimeEvent) => {
		for (const l of listeners) l(e)
	}
	const watch = new AccountWatch(opts.clock, emit, inner, governor, slowModes)
	const health = watch.health
	/** Kinds the layer above asked for; `updateMessageSendFailed` is always asked of the child. */
	let wanted: ReadonlySet<string> = new Set()
	inner.onEvent((e) => {
		if (watch.onEvent(e, wanted)) emit(e)
	})
	const paced = governor
		? createPacer({ governor, slowModes, inner, clock: opts.clock, commandTimeoutMs: opts.commandTimeoutMs })
		: undefined

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
			const cls = opts.classOf(o?.label, request._)
			const counted = paced && cls && CLASS_METHODS[cls].has(request._)
			const p = counted ? paced(userbotId, request, o, cls) : inner.invoke(userbotId, request, o)
			if (slowModes && request._ === 'getSupergroupFullInfo')
				void p.then(
					(info) => slowModes.onAnswer(userbotId, request, info),
					() => undefined,
				)
			return p.catch((err: unknown) => {
				watch.observe(userbotId, request._, cls, err)
				throw err
			})
		},
		async startClient(userbotId: number, o: StartClientOptions): Promise<string> {
			if (!watch.starting(userbotId)) throw new RuntimeError('unavailable', 'the account is banned')
			let state: string
			try {
				state = await inner.startClient(userbotId, o)
			} catch (err) {
				if (err instanceof RuntimeError && err.code === 'capacity') watch.noRoom(userbotId)
				throw err
			}
			watch.startedAs(userbotId, state)
			return state
		},
		stopClient: (userbotId, o) => watch.stop(userbotId, () => inner.stopClient(userbotId, o)),
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
