import type * as Td from 'tdlib-types'
import type { TdUpdate } from '../../runtime/telegram/types'

/**
 * Sends the cloud refuses after TDLib has handed out the temporary message: TDLib then answers
 * `updateMessageSendFailed` instead of `updateMessageSendSucceeded`. The emulator has one such case,
 * the one a client can cause on purpose: media by an HTTP URL the server cannot fetch. No host under
 * `.invalid` ever resolves (RFC 2606), so the server's fetch fails with `WEBPAGE_CURL_FAILED`.
 */

const UNREACHABLE: Td.error = { _: 'error', code: 400, message: 'WEBPAGE_CURL_FAILED' }

function unreachableUrl(id: string): boolean {
	try {
		const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(id) ? id : `http://${id}`)
		return url.hostname.toLowerCase().endsWith('.invalid')
	} catch {
		return false
	}
}

/** The error the cloud answers for sending `content`, or undefined when it takes it. */
export function sendRefusal(content: unknown): Td.error | undefined {
	const stack: unknown[] = [content]
	while (stack.length > 0) {
		const node = stack.pop()
		if (typeof node !== 'object' || node === null) continue
		const o = node as { _?: string; id?: unknown }
		if (o._ === 'remoteFile' && typeof o.id === 'string' && o.id.includes('.') && unreachableUrl(o.id))
			return UNREACHABLE
		stack.push(...Object.values(node))
	}
	return undefined
}

/** TDLib's update for a refused send: the message stays the client's, failed, under a new local id. */
export function sendFailed(temp: Td.message, error: Td.error): TdUpdate {
	return {
		_: 'updateMessageSendFailed',
		message: {
			...temp,
			id: temp.id + 1,
			sending_state: {
				_: 'messageSendingStateFailed',
				error,
				can_retry: false,
				need_another_sender: false,
				need_another_reply_quote: false,
				need_drop_reply: false,
				required_paid_message_star_count: 0,
				retry_after: 0,
			},
		},
		old_message_id: temp.id,
		error,
	}
}
