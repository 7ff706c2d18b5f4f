import { expect } from 'bun:test'
import type { WsClient } from '../../helpers-ws'

export { TESTED_METHODS } from './methods'

/** `td_invoke` frames on one socket for one userbot: the result, or the error string. */
export function tdInvoker(c: WsClient, userbotId: number) {
	const send = async (request: unknown) =>
		(await c.command({ action: 'td_invoke', userbot_id: userbotId, request })).payload
	return {
		send,
		async ok(request: unknown) {
			const payload = await send(request)
			expect(payload).toMatchObject({ type: 'td_invoke' })
			return payload.result as Record<string, unknown>
		},
		async errorOf(request: unknown) {
			const payload = await send(request)
			expect(payload.type).toBe('td_invoke_error')
			return payload.error as string
		},
	}
}
