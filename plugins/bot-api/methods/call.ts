import type { AppContext, Principal } from 'userbot-gateway/plugin'
import { badRequest, commandError } from '../answer'
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
	/**
	 * Names TDLib messages the method sent as the face's own (left out of the token's updates): for an
	 * answer that does not name them itself (a copy's `MessageId`s).
	 */
	own(messages: ReadonlyArray<Td | null>): void
}

export type Method = (call: Call) => Promise<unknown>
export type Td = Record<string, unknown>

/** Runs the command the method maps onto (the WebSocket's own path: its policy entry, input, TDLib calls). */
export async function command(call: Call, action: string, input: Record<string, unknown>): Promise<Td> {
	const answer = await call.ctx.runCommand(
		call.principal,
		call.userbotId,
		action,
		await reached(call, action, input),
		call.signal,
	)
	// A `@username` nobody holds: the Bot API's words.
	if (!answer.ok && answer.error === USERNAME_UNKNOWN) throw badRequest('chat not found')
	if (!answer.ok) throw commandError(answer.error, answer.result)
	return (answer.result ?? {}) as Td
}

/** A `chat_id` given as the Bot API allows, `@username` of a public chat or user (docs/bot-api.md#reaching-a-person). */
export class ChatUsername {
	constructor(readonly username: string) {}
}

/** The commands' words for a username nobody holds (get_chat, send_message). */
const USERNAME_UNKNOWN = 'no chat has this username'

/** A username as Telegram has them: 4 to 32 letters, digits and underscores. */
const USERNAME = /^@[A-Za-z0-9_]{4,32}$/

/**
 * The input with a `@username` chat id resolved: send_message takes the `username` itself; every
 * other command gets the chat id that get_chat's `username` found (TDLib's searchPublicChat).
 */
async function reached(call: Call, action: string, input: Record<string, unknown>) {
	const ref = input.chat_id
	if (!(ref instanceof ChatUsername)) return input
	const { chat_id: _, ...rest } = input
	if (action === 'send_message' || action === 'get_chat') return { ...rest, username: ref.username }
	const chat = await command(call, 'get_chat', { username: ref.username })
	return { ...rest, chat_id: chat.id }
}

/** `chat_id`: an integer, or `@username` (resolved by `command`). */
export function chatId(params: Record<string, unknown>): number | ChatUsername {
	const value = params.chat_id
	if (typeof value === 'string' && USERNAME.test(value)) return new ChatUsername(value)
	return requiredInt(params, 'chat_id', 'chat_id is empty')
}
export const messageId = (params: Record<string, unknown>) =>
	tdMessageId(requiredInt(params, 'message_id', 'message identifier is not specified'))
