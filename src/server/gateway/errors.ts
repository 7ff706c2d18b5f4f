import { GatewayErrors } from '../../common/wire/errors'
import { RuntimeError, TdError } from '../../runtime/telegram/types'
import { CommandError } from '../commands/define'

/** The wire string of each runtime failure: no client running is the same answer as the pre-check's. */
const RUNTIME_WORDS: Record<RuntimeError['code'], string> = {
	timeout: GatewayErrors.TIMEOUT,
	runtime_down: GatewayErrors.RUNTIME_RESTARTED,
	no_client: GatewayErrors.RUNTIME_UNAVAILABLE,
	unavailable: GatewayErrors.RUNTIME_UNAVAILABLE,
	bad_request: GatewayErrors.INTERNAL,
	capacity: GatewayErrors.RUNTIME_UNAVAILABLE,
	held_elsewhere: GatewayErrors.RUNTIME_HELD_ELSEWHERE,
}

/**
 * How a failure reads on the wire: a CommandError's own string, TDLib's message (but never a code-406
 * one), the runtime's fixed strings, else `internal error`. The one mapping: the gateway words every
 * `<command>_error` with it, and a command that reports per-item failures (forward_message) too.
 */
export function wordError(err: unknown): string {
	if (err instanceof CommandError) return err.message
	if (err instanceof TdError) return err.code === 406 ? GatewayErrors.HIDDEN_TDLIB_ERROR : err.message
	// A refusal for capacity is ours and names the limit (docs/capacity.md): told as it is.
	if (err instanceof RuntimeError) return err.code === 'capacity' ? err.message : RUNTIME_WORDS[err.code]
	return GatewayErrors.INTERNAL
}
