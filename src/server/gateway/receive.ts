import { CLOSE_TOO_BIG, REASON_TOO_BIG } from '../../common/wire/close'
import { errorReply, FRAME_ERROR_TYPE } from '../../common/wire/envelope'
import { GatewayErrors as E } from '../../common/wire/errors'
import { MAX_FRAME_BYTES } from '../../common/wire/limits'
import type { GatewaySocket } from './socket'

const utf8 = new TextDecoder('utf-8', { fatal: true })

/**
 * A frame as text, or null when it is answered already: a frame over MAX_FRAME_BYTES closes the
 * socket (1009), a binary frame that is no UTF-8 is `invalid JSON`, an ended socket takes nothing.
 */
export function frameText(socket: GatewaySocket, message: string | Buffer): string | null {
	if (socket.state === 'ended') return null
	if (typeof message === 'string') {
		// UTF-8 never takes fewer bytes than UTF-16 code units, so only long frames need counting.
		if (message.length * 3 > MAX_FRAME_BYTES && Buffer.byteLength(message) > MAX_FRAME_BYTES) {
			socket.end(CLOSE_TOO_BIG, REASON_TOO_BIG)
			return null
		}
		return message
	}
	if (message.byteLength > MAX_FRAME_BYTES) {
		socket.end(CLOSE_TOO_BIG, REASON_TOO_BIG)
		return null
	}
	try {
		return utf8.decode(message)
	} catch {
		socket.send(errorReply(null, FRAME_ERROR_TYPE, E.INVALID_JSON, undefined))
		return null
	}
}
