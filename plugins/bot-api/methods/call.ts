import type { AppContext, Principal } from 'userbot-gateway/plugin'
import { commandError } from '../answer'
import { tdMessageId } from '../objects'
import { requiredInt } from '../params'
import type { createUpdateBuffer } from '../updates'

/** What a method is given: the caller, its one userbot, the request's parameters and signal. */
export interface Call {
	ctx: AppContext
	principal: Principal
	userbotId: number
	params: Record<string, unknown>
	signal: AbortSignal
	updates: ReturnType<typeof createUpdateBuffer>
}

export type Method = (call: Call) => Promise<unknown>
export type Td = Record<string, unknown>

/** Runs the command the method maps onto (the WebSocket's own path: its policy entry, input, TDLib calls). */
export async function command(call: Call, action: string, input: Record<string, unknown>): Promise<Td> {
	const answer = await call.ctx.runCommand(call.principal, call.userbotId, action, input, call.signal)
	if (!answer.ok) throw commandError(answer.error, answer.result)
	return (answer.result ?? {}) as Td
}

export const chatId = (params: Record<string, unknown>) => requiredInt(params, 'chat_id', 'chat_id is empty')
export const messageId = (params: Record<string, unknown>) =>
	tdMessageId(requiredInt(params, 'message_id', 'message identifier is not specified'))
