import type { Clock } from '../flood/clock'
import { type FloodGovernor, FloodRefused } from '../flood/governor'
import type { FloodClass } from '../flood/limits'
import type { SlowModes } from '../flood/slow-mode'
import { RuntimeError, TdError, type TdMethod, type TdRequest, type TdResult } from '../telegram/types'
import type { LocalRuntime } from '.'
import type { InvokeOptions } from './types'

/** Time left for the request itself once its wait is over. */
const SEND_ALLOWANCE_MS = 1000

/** The governor's refusal as it crosses the wire: TDLib's own words for a flood wait, code 429. */
export class FloodRefusedTd extends TdError {
	constructor(readonly retryAfter: number) {
		super(429, `Too Many Requests: retry after ${retryAfter}`)
	}
}

export interface PacingOptions {
	governor: FloodGovernor
	slowModes?: SlowModes
	inner: LocalRuntime
	clock: Clock
	commandTimeoutMs: number
}

/**
 * A request the governor counts: it waits for its turn (a message to a supergroup first learns that
 * chat's slow mode), then goes with the time it has left. A wait past its allowance is refused as
 * TDLib would refuse it (`FloodRefusedTd`).
 */
export function createPacer(p: PacingOptions) {
	return async function paced<M extends TdMethod>(
		userbotId: number,
		request: TdRequest<M>,
		o: InvokeOptions | undefined,
		cls: FloodClass,
	): Promise<TdResult<M>> {
		const start = p.clock.now()
		const timeoutMs = o?.timeoutMs ?? p.commandTimeoutMs
		const chatId = (request as { chat_id?: unknown }).chat_id
		// A message to a supergroup not looked at yet: its slow mode first (once per account and chat).
		if (cls === 'send' && typeof chatId === 'number')
			await p.slowModes?.known(userbotId, chatId, Math.max(1, timeoutMs - SEND_ALLOWANCE_MS))
		try {
			await p.governor.admit(
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
		const left = Math.max(1, Math.ceil(timeoutMs - (p.clock.now() - start)))
		return p.inner.invoke(userbotId, request, { ...o, timeoutMs: left })
	}
}
