import {
	RuntimeError,
	TdError,
	type TdMethod,
	type TdRequest,
	type TdResult,
	type TelegramRuntime,
} from 'userbot-gateway/plugin'
import { UserbotError, userbotErrors } from './errors'

/** Turns what the runtime throws into the lifecycle's own errors; anything else stays unexpected. */
export function mapRuntimeError(err: unknown): unknown {
	if (err instanceof UserbotError) return err
	if (err instanceof TdError) return userbotErrors.telegram(err.message)
	if (err instanceof RuntimeError) {
		if (err.code === 'timeout') return userbotErrors.timeout()
		if (err.code === 'bad_request') return userbotErrors.telegram(err.message)
		if (err.code === 'capacity') return userbotErrors.capacity(err.message)
		if (err.code === 'held_elsewhere') return userbotErrors.heldElsewhere()
		return userbotErrors.unavailable()
	}
	return err
}

export async function callTelegram<M extends TdMethod>(
	runtime: TelegramRuntime,
	userbotId: number,
	request: TdRequest<M>,
	timeoutMs: number,
	label?: string,
): Promise<TdResult<M>> {
	try {
		return await runtime.invoke(userbotId, request, { timeoutMs, label })
	} catch (err) {
		throw mapRuntimeError(err)
	}
}
