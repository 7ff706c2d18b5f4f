import { type AppContext, successEvent } from 'userbot-gateway/plugin'
import { publicDetail } from './auth-states'

/**
 * Pushes a userbot's authorization state to its company's sockets: a `chat_update` of type
 * `authorization_state`, built by the one reply builder, so a state push is framed exactly as a
 * command's reply (docs/protocol.md#envelopes). Only the parts of the state a client may see go out.
 */
export function pushState(
	publish: AppContext['publish'],
	companyId: number,
	userbotId: number,
	state: string,
	detail: Record<string, unknown> | undefined,
): void {
	const result = { authorization_state: state, ...publicDetail(state, detail) }
	publish({ companyId, userbotId, message: successEvent(userbotId, 'authorization_state', result) })
}
