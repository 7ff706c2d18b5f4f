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
 * The input with each `@username` resolved: send_message and get_chat take a `chat_id`'s `username`
 * themselves; everywhere else (`chat_id`, `from_chat_id`, each of a forward's `to_chat_ids`) the chat
 * id that get_chat's `username` found (TDLib's searchPublicChat) stands in for it.
 */
async function reached(call: Call, action: string, input: Record<string, unknown>) {
	let out = input
	const ref = input.chat_id
	if (ref instanceof ChatUsername) {
		const { chat_id: _, ...rest } = input
		out =
			action === 'send_message' || action === 'get_chat'
				? { ...rest, username: ref.username }
				: { ...rest, chat_id: await resolved(call, ref) }
	}
	if (out.from_chat_id instanceof ChatUsername)
		out = { ...out, from_chat_id: await resolved(call, out.from_chat_id) }
	const to = out.to_chat_ids
	if (Array.isArray(to) && to.some((x) => x instanceof ChatUsername)) {
		const ids = []
		for (const x of to) ids.push(x instanceof ChatUsername ? await resolved(call, x) : x)
		out = { ...out, to_chat_ids: ids }
	}
	return out
}

const resolved = async (call: Call, ref: ChatUsername) =>
	(await command(call, 'get_chat', { username: ref.username })).id

/** A chat parameter (`chat_id`, `from_chat_id`): an integer, or `@username` (resolved by `command`). */
export function chatRef(
	params: Record<string, unknown>,
	name: string,
	missing: string,
): number | ChatUsername {
	const value = params[name]
	if (typeof value === 'string' && USERNAME.test(value)) return new ChatUsername(value)
	return requiredInt(params, name, missing)
}

/** `chat_id`: an integer, or `@username` (resolved by `command`). */
export const chatId = (params: Record<string, unknown>) => chatRef(params, 'chat_id', 'chat_id is empty')
export const messageId = (params: Record<string, unknown>) =>
	tdMessageId(requiredInt(params, 'message_id', 'message identifier is not specified'))
