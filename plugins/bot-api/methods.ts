import { type AppContext, type Principal, reachesUserbot } from 'userbot-gateway/plugin'
import { BotError, badRequest, commandError } from './answer'
import { botMessageId, chatOf, messageOf, tdMessageId, userOf } from './objects'
import { intOf, objectOf, requiredInt, stringOf } from './params'
import type { createUpdateBuffer } from './updates'

/** What a method is given: the caller, its one userbot, the request's parameters and signal. */
export interface Call {
	ctx: AppContext
	principal: Principal
	userbotId: number
	params: Record<string, unknown>
	signal: AbortSignal
	updates: ReturnType<typeof createUpdateBuffer>
}

type Method = (call: Call) => Promise<unknown>
type Td = Record<string, unknown>

/** Runs the command the method maps onto (the WebSocket's own path: its policy entry, input, TDLib calls). */
async function command(call: Call, action: string, input: Record<string, unknown>): Promise<Td> {
	const answer = await call.ctx.runCommand(call.principal, call.userbotId, action, input, call.signal)
	if (!answer.ok) throw commandError(answer.error, answer.result)
	return (answer.result ?? {}) as Td
}

const chatId = (params: Record<string, unknown>) => requiredInt(params, 'chat_id', 'chat_id is empty')
const messageId = (params: Record<string, unknown>) =>
	tdMessageId(requiredInt(params, 'message_id', 'message identifier is not specified'))

/** Only plain text for now: `parse_mode` needs TDLib's parser on the command's side (docs/bot-api.md). */
function plainText(params: Record<string, unknown>): string {
	const mode = stringOf(params, 'parse_mode')
	if (mode !== undefined && mode !== '') throw badRequest('parse_mode is not supported yet')
	const text = stringOf(params, 'text')
	if (text === undefined || text === '') throw badRequest('message text is empty')
	return text
}

/** The message replied to: `reply_parameters.message_id`, or the older `reply_to_message_id`. */
function replyTo(params: Record<string, unknown>) {
	const reply = objectOf(params, 'reply_parameters')
	const id = reply ? intOf(reply, 'message_id') : intOf(params, 'reply_to_message_id')
	return id === undefined
		? {}
		: { reply_to: { _: 'inputMessageReplyToMessage', message_id: tdMessageId(id) } }
}

const UPDATES_LIMIT = 100
/** The longest long poll served (Telegram's own bound is 50 s). */
const MAX_POLL_S = 50

/** The methods served, by their Bot API name (docs/bot-api.md). */
export const METHODS: Readonly<Record<string, Method>> = {
	getMe: async (call) => userOf(await command(call, 'get_me', {})),
	sendMessage: async (call) => {
		const { params } = call
		const input = { chat_id: chatId(params), text: plainText(params), ...replyTo(params), wait_sent: true }
		return messageOf(await command(call, 'send_message', input))
	},
	getChat: async (call) => chatOf(await command(call, 'get_chat', { chat_id: chatId(call.params) })),
	deleteMessage: async (call) => {
		const { params } = call
		await command(call, 'delete_messages', {
			chat_id: chatId(params),
			message_ids: [messageId(params)],
			revoke: true,
		})
		return true
	},
	editMessageText: async (call) => {
		const { params } = call
		if (params.inline_message_id !== undefined) throw badRequest('inline messages are only for bots')
		const input = { chat_id: chatId(params), message_id: messageId(params), text: plainText(params) }
		return messageOf(await command(call, 'edit_message', input))
	},
	// No webhook is ever set on this face yet (setWebhook is not served): there is none to delete.
	deleteWebhook: async () => true,
	getWebhookInfo: async () => ({ url: '', has_custom_certificate: false, pending_update_count: 0 }),
	getUpdates: async (call) => {
		const { params, principal, userbotId } = call
		// The key's userbot scope, as the policy reads it (its token names that one userbot).
		if (!reachesUserbot(principal, userbotId)) throw new BotError(403, 'Forbidden: userbot is not reachable')
		const limit = Math.min(Math.max(intOf(params, 'limit') ?? UPDATES_LIMIT, 1), UPDATES_LIMIT)
		const timeout = Math.min(Math.max(intOf(params, 'timeout') ?? 0, 0), MAX_POLL_S)
		return call.updates.get(userbotId, intOf(params, 'offset'), limit, timeout * 1000, call.signal)
	},
}

/** Methods of the Bot API that only a bot has: answered 400, in words that say so. */
export const BOT_ONLY: ReadonlySet<string> = new Set([
	'answerCallbackQuery',
	'answerInlineQuery',
	'answerWebAppQuery',
	'answerShippingQuery',
	'answerPreCheckoutQuery',
	'setMyCommands',
	'getMyCommands',
	'deleteMyCommands',
	'setMyName',
	'getMyName',
	'setMyDescription',
	'getMyDescription',
	'setMyShortDescription',
	'getMyShortDescription',
	'setChatMenuButton',
	'getChatMenuButton',
	'setMyDefaultAdministratorRights',
	'getMyDefaultAdministratorRights',
	'sendInvoice',
	'createInvoiceLink',
	'sendGame',
	'setGameScore',
	'getGameHighScores',
	'logOut',
	'close',
])

export const botOnly = () => badRequest('the method is available only for bots')

export { botMessageId }
