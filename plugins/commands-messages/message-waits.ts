import type * as Td from 'tdlib-types'
import {
	type CommandContext,
	CommandError,
	documented,
	MAX_WAIT_SECONDS,
	optionalInt,
	RuntimeError,
} from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { MessagesErrors as E } from './errors'

/**
 * Waiting for a message (wait_for_message, send_and_wait: docs/command-groups.md#conversations). A
 * wait is one listener of the userbot's `updateNewMessage` (the gateway keeps them by userbot and
 * kind) and one timer: no poll. It ends at its first match, at `timeout_s` (`timed out`), when the
 * command's signal aborts (the socket closed, the deadline passed), or when the userbot goes away
 * (the gateway answers the command itself then: `userbot not found` and the like).
 */

/** The TDLib update a wait listens to. */
export const NEW_MESSAGE_UPDATES = ['updateNewMessage'] as const

export const DEFAULT_WAIT_SECONDS = 60

/** `timeout_s`: how long to wait for the message, 1 to MAX_WAIT_SECONDS seconds. */
export const timeoutField = v.pipe(
	documented(optionalInt('timeout_s'), {
		minimum: 1,
		maximum: MAX_WAIT_SECONDS,
		default: DEFAULT_WAIT_SECONDS,
		description: 'how long to wait for the message, in seconds',
	}),
	v.check((x) => x === undefined || (x >= 1 && x <= MAX_WAIT_SECONDS), E.TIMEOUT_S_RANGE),
)

/** What the gateway reads of the frame to give the command its longer deadline (CommandDefinition.waits). */
export const WAITS = { field: 'timeout_s', default: DEFAULT_WAIT_SECONDS } as const

/** Messages a watch keeps while nobody waits yet (send_and_wait, while its message is being sent). */
const MAX_KEPT = 100

export interface MessageWatch {
	/**
	 * The first message, kept since the watch began or still to come, that `match` takes; `timed
	 * out` after `seconds`.
	 */
	next(match: (message: Td.message) => boolean, seconds: number): Promise<Td.message>
	stop(): void
}

/**
 * Starts listening for new messages now. A message this account is still sending (TDLib's temporary
 * copy, with a `sending_state`) is none: its final form comes as `updateMessageSendSucceeded`.
 */
export function watchMessages(ctx: CommandContext): MessageWatch {
	const kept: Td.message[] = []
	let waiter: ((message: Td.message) => void) | undefined
	const stop = ctx.onUpdate((update) => {
		if (update._ !== 'updateNewMessage' || update.message.sending_state) return
		if (waiter) return waiter(update.message)
		kept.push(update.message)
		if (kept.length > MAX_KEPT) kept.shift()
	})
	const next = (match: (message: Td.message) => boolean, seconds: number): Promise<Td.message> => {
		const found = kept.find(match)
		kept.length = 0
		if (found) return Promise.resolve(found)
		const signal = ctx.signal
		// The socket closed or the deadline passed: answered (or dropped) by the gateway already.
		const gone = () => new RuntimeError('timeout', 'aborted')
		if (signal.aborted) return Promise.reject(gone())
		return new Promise((resolve, reject) => {
			const finish = () => {
				waiter = undefined
				clearTimeout(timer)
				signal.removeEventListener('abort', aborted)
			}
			const aborted = () => {
				finish()
				reject(gone())
			}
			const timer = setTimeout(() => {
				finish()
				reject(new CommandError(E.TIMED_OUT))
			}, seconds * 1000)
			waiter = (message) => {
				if (!match(message)) return
				finish()
				resolve(message)
			}
			signal.addEventListener('abort', aborted, { once: true })
		})
	}
	return { next, stop }
}

/** Who sent the message: a user's id, or a chat's (a channel, an anonymous admin). */
export const senderOf = (message: Td.message): number =>
	message.sender_id._ === 'messageSenderUser' ? message.sender_id.user_id : message.sender_id.chat_id

/** The message of the same chat that `message` replies to, or undefined. */
export const repliedTo = (message: Td.message): number | undefined =>
	message.reply_to?._ === 'messageReplyToMessage' && message.reply_to.chat_id === message.chat_id
		? message.reply_to.message_id
		: undefined
