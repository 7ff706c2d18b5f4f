import type * as Td from 'tdlib-types'
import { type CommandContext, documented, optionalBool, TdError } from 'userbot-gateway/plugin'

/** What TDLib says of a message it was sending: Telegram has it (its final id), or refused it. */
export const SENT_UPDATES = ['updateMessageSendSucceeded', 'updateMessageSendFailed'] as const

type Outcome = Td.updateMessageSendSucceeded | Td.updateMessageSendFailed

/** `wait_sent`: answer with the final message(s) once Telegram has them, not TDLib's temporary ones. */
export const waitSentField = documented(optionalBool('wait_sent'), {
	default: false,
	description:
		"true: answer once Telegram has the message, with its final id (TDLib's updateMessageSendSucceeded), or with the send's failure",
})

const keyOf = (chatId: number, messageId: number) => `${chatId}:${messageId}`

/** Listens for the outcome of messages TDLib is sending; `stop` when done. */
export interface SentTracker {
	/** The final message once Telegram has it; rejects with TDLib's error when it refused it. */
	settle(message: Td.message): Promise<Td.message>
	stop(): void
}

/**
 * Starts listening for `updateMessageSendSucceeded`/`Failed` now, before anything is sent, so an
 * update that arrives before TDLib's answer is kept, not missed. The command's deadline bounds each
 * wait (`ctx.signal`).
 */
export function trackSent(ctx: CommandContext): SentTracker {
	const early = new Map<string, Outcome>()
	const waiting = new Map<string, (outcome: Outcome) => void>()
	const stop = ctx.onUpdate((update) => {
		if (update._ !== 'updateMessageSendSucceeded' && update._ !== 'updateMessageSendFailed') return
		const key = keyOf(update.message.chat_id, update.old_message_id)
		const waiter = waiting.get(key)
		if (waiter) waiter(update)
		else early.set(key, update)
	})
	const settle = (message: Td.message): Promise<Td.message> => {
		if (message.sending_state?._ === 'messageSendingStateFailed') {
			const { error } = message.sending_state
			return Promise.reject(new TdError(error.code, error.message))
		}
		if (message.sending_state?._ !== 'messageSendingStatePending') return Promise.resolve(message)
		const signal = ctx.signal
		const key = keyOf(message.chat_id, message.id)
		return new Promise((resolve, reject) => {
			const done = (outcome: Outcome) => {
				waiting.delete(key)
				signal.removeEventListener('abort', aborted)
				if (outcome._ === 'updateMessageSendSucceeded') resolve(outcome.message)
				else reject(new TdError(outcome.error.code, outcome.error.message))
			}
			const aborted = () => {
				waiting.delete(key)
				reject(signal.reason)
			}
			const known = early.get(key)
			if (known) return done(known)
			if (signal.aborted) return aborted()
			waiting.set(key, done)
			signal.addEventListener('abort', aborted, { once: true })
		})
	}
	return { settle, stop }
}

/**
 * Runs `send` and answers once every message it made is sent: each pending message is replaced by
 * the final one of its `updateMessageSendSucceeded`; an `updateMessageSendFailed` fails the command
 * with TDLib's error (`trackSent`).
 */
export async function waitSent<T extends Td.message | Td.messages>(
	ctx: CommandContext,
	send: () => Promise<T>,
): Promise<T> {
	const { settle, stop } = trackSent(ctx)
	try {
		const sent = await send()
		if (sent._ === 'message') return (await settle(sent)) as T
		const messages = await Promise.all(sent.messages.map((m) => (m ? settle(m) : m)))
		return { ...sent, messages } as T
	} finally {
		stop()
	}
}
