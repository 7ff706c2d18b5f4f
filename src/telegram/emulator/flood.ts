import { type Clock, sleepOn, wallClock } from '../../flood/clock'
import { classOfMethod, type FloodLimits, keysFor, parseFloodLimits } from '../../flood/limits'
import { FloodMeter } from '../../flood/meter'
import type { BackendClient, TdRequest, TdUpdate } from '../types'
import { TdError } from '../types'

/**
 * The emulated cloud's flood limits (`EMULATOR_FLOOD_LIMITS`), per emulated client (one account
 * runs in one client at a time), with what the TDLib client makes of Telegram's `FLOOD_WAIT_N`:
 *
 * - a request over its limit is given the next free moment (Telegram counts it, so the requests after
 *   it wait longer: a burst's waits grow one interval per request);
 * - a wait up to `delay` seconds is waited out inside the client: the answer simply comes later;
 * - a longer one is TDLib's `429 Too Many Requests: retry after N`, except for a message: then
 *   `sendMessage` answers with a pending message at once and `updateMessageSendFailed` (its
 *   `sending_state.retry_after` N) follows; nothing is delivered.
 *
 * Emulator-only requests: `emulatorFloodStats` (how many FLOOD_WAITs this client got: delayed and
 * refused), `emulatorLimit` (the account is under spam restrictions: sending answers `400
 * PEER_FLOOD`), `emulatorBan` (the account is deactivated: every request answers `401
 * USER_DEACTIVATED_BAN`, then the client logs out as TDLib does), `emulatorFreeze` (the account is
 * frozen, as Telegram freezes accounts it suspects of abuse: `updateFreezeState` with `is_frozen`,
 * then every request of a flood class, the ones that act on others: sending, joining, adding
 * members, importing contacts, resolving public usernames, answers `420 FROZEN_METHOD_INVALID`;
 * reading the account's own chats still works, as on Telegram).
 *
 * Slow mode (`slow-mode.ts`): a message to a supergroup in slow mode, from a member who is no
 * administrator, within the delay of this client's last one there, fails as Telegram's
 * `SLOWMODE_WAIT_N` reaches a TDLib client: 429 `Too Many Requests: retry after N` (for
 * `sendMessage`, a pending message and `updateMessageSendFailed`), never waited out.
 */
export interface EmulatorFloodOptions {
	limits: FloodLimits
	/** Seconds of FLOOD_WAIT the client waits out by itself. */
	delaySeconds: number
	clock?: Clock
}

export const DEFAULT_EMULATOR_DELAY = 2

/** Reads `EMULATOR_FLOOD_LIMITS` (`send_chat=10/10,delay=2`); throws naming the wrong key. */
export function parseEmulatorFloodLimits(text: string): EmulatorFloodOptions {
	const { limits, extra } = parseFloodLimits(text, ['delay'])
	return { limits, delaySeconds: extra.delay ?? DEFAULT_EMULATOR_DELAY }
}

const SENDS = new Set(['sendMessage', 'sendMessageAlbum'])
/** TDLib's supergroup chat ids are `-SUPERGROUP_CHAT - supergroup_id`. */
const SUPERGROUP_CHAT = 1_000_000_000_000
const ADMINS = new Set(['chatMemberStatusCreator', 'chatMemberStatusAdministrator'])
/** What a frozen account may still do of the paced requests: read its own dialog list. */
const FROZEN_ALLOWED = new Set(['dialogs'])
/** How long Telegram keeps a frozen account before deleting it (shown in `deletion_date`). */
const FROZEN_DAYS = 30

export function withFloodLimits(inner: BackendClient, opts: EmulatorFloodOptions): BackendClient {
	const clock = opts.clock ?? wallClock
	const meter = new FloodMeter(opts.limits)
	const stats = { delayed: 0, refused: 0 }
	const listeners: Array<(u: TdUpdate) => void> = []
	let limited = false
	let banned = false
	let frozen = false
	let tempIds = 0
	/** Per supergroup chat, when this client last sent a message there (slow mode), on `clock`. */
	const lastSent = new Map<number, number>()
	inner.onUpdate((u) => {
		for (const l of listeners) l(u)
	})
	const emit = (u: unknown) => {
		for (const l of listeners) l(u as TdUpdate)
	}

	async function pendingThenFailed(request: TdRequest, retryAfter: number) {
		const r = request as unknown as { chat_id?: number; input_message_content?: { text?: unknown } }
		const my = (await inner.invoke({ _: 'getOption', name: 'my_id' })) as { value?: string }
		const id = 2 ** 30 + ++tempIds
		const message = {
			_: 'message',
			id,
			sender_id: { _: 'messageSenderUser', user_id: Number(my.value ?? 0) },
			chat_id: r.chat_id ?? 0,
			is_outgoing: true,
			date: Math.floor(Date.now() / 1000),
			content: {
				_: 'messageText',
				text: r.input_message_content?.text ?? { _: 'formattedText', text: '', entities: [] },
			},
			sending_state: { _: 'messageSendingStatePending', sending_id: 0 },
		}
		const error = { _: 'error', code: 429, message: `Too Many Requests: retry after ${retryAfter}` }
		queueMicrotask(() =>
			emit({
				_: 'updateMessageSendFailed',
				message: {
					...message,
					sending_state: {
						_: 'messageSendingStateFailed',
						error,
						can_retry: true,
						need_another_sender: false,
						need_another_reply_quote: false,
						need_drop_reply: false,
						required_paid_message_star_count: 0,
						retry_after: retryAfter,
					},
				},
				old_message_id: id,
				error,
			}),
		)
		return message
	}

	/** Milliseconds before this client may send to `chatId` again under its slow mode; 0: now. */
	async function slowModeWait(chatId: number): Promise<number> {
		if (chatId > -SUPERGROUP_CHAT) return 0
		const supergroup_id = -SUPERGROUP_CHAT - chatId
		const info = (await inner.invoke({ _: 'getSupergroupFullInfo', supergroup_id }).catch(() => undefined)) as
			| { slow_mode_delay?: number }
			| undefined
		const delayMs = (info?.slow_mode_delay ?? 0) * 1000
		if (delayMs <= 0) return 0
		const group = (await inner.invoke({ _: 'getSupergroup', supergroup_id }).catch(() => undefined)) as
			| { status?: { _: string } }
			| undefined
		if (group?.status && ADMINS.has(group.status._)) return 0
		const now = clock.now()
		const last = lastSent.get(chatId)
		if (last !== undefined && now - last < delayMs) return delayMs - (now - last)
		lastSent.set(chatId, now)
		return 0
	}

	async function invoke(request: TdRequest): Promise<unknown> {
		const method = request._ as string
		switch (method) {
			case 'emulatorFloodStats':
				return { _: 'emulatorFloodStats', delayed: stats.delayed, refused: stats.refused }
			case 'emulatorLimit':
				limited = true
				return { _: 'ok' }
			case 'emulatorBan':
				banned = true
				return { _: 'ok' }
			case 'emulatorFreeze': {
				frozen = true
				const now = Math.floor(Date.now() / 1000)
				queueMicrotask(() =>
					emit({
						_: 'updateFreezeState',
						is_frozen: true,
						freezing_date: now,
						deletion_date: now + FROZEN_DAYS * 86_400,
						appeal_link: 'https://t.me/spambot',
					}),
				)
				return { _: 'ok' }
			}
		}
		if (banned && method !== 'close') {
			// Told once, then the client logs out by itself (its auth key is no longer valid).
			queueMicrotask(
				() => void inner.invoke({ _: 'emulatorRevoke' } as unknown as TdRequest).catch(() => undefined),
			)
			throw new TdError(401, 'USER_DEACTIVATED_BAN')
		}
		const cls = classOfMethod(method)
		if (!cls) return inner.invoke(request)
		if (frozen && !FROZEN_ALLOWED.has(cls)) throw new TdError(420, 'FROZEN_METHOD_INVALID')
		if (limited && cls === 'send') throw new TdError(400, 'PEER_FLOOD')
		const chatId = (request as { chat_id?: unknown }).chat_id
		if (cls === 'send' && typeof chatId === 'number') {
			const slow = await slowModeWait(chatId)
			if (slow > 0) {
				stats.refused++
				const seconds = Math.ceil(slow / 1000)
				if (method === 'sendMessage') return pendingThenFailed(request, seconds)
				throw new TdError(429, `Too Many Requests: retry after ${seconds}`)
			}
		}
		const refs = keysFor(cls, typeof chatId === 'number' ? chatId : undefined)
		const now = clock.now()
		const at = meter.peek(refs, now)
		meter.take(refs, at)
		const wait = at - now
		if (wait > 0) {
			const seconds = Math.ceil(wait / 1000)
			if (seconds > opts.delaySeconds) {
				stats.refused++
				if (SENDS.has(method)) return pendingThenFailed(request, seconds)
				throw new TdError(429, `Too Many Requests: retry after ${seconds}`)
			}
			stats.delayed++
			await sleepOn(clock, wait)
		}
		return inner.invoke(request)
	}

	return {
		invoke,
		onUpdate(listener) {
			listeners.push(listener)
		},
		close: () => inner.close(),
	}
}
