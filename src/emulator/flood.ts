import { type Clock, sleepOn, wallClock } from '../runtime/flood/clock'
import { classOfMethod, type FloodLimits, keysFor, parseFloodLimits } from '../runtime/flood/limits'
import { FloodMeter } from '../runtime/flood/meter'
import type { BackendClient, TdRequest, TdUpdate } from '../runtime/telegram/types'
import { TdError } from '../runtime/telegram/types'

/**
 * The emulated cloud's flood limits (`EMULATOR_FLOOD_LIMITS`), per emulated client (one account
 * runs in one client at a time), with what the TDLib client makes of Telegram's `FLOOD_WAIT_N`:
 *
 * - a request over its limit is given the next free moment;
 * - a wait up to `delay` seconds is waited out inside the client: the answer simply comes later, and
 *   the moment is taken (the requests after it wait longer: a burst's waits grow one interval each);
 * - a longer one is TDLib's `429 Too Many Requests: retry after N`, except for a message: then
 *   `sendMessage` answers with a pending message at once and `updateMessageSendFailed` (its
 *   `sending_state.retry_after` N) follows; nothing is delivered, and no moment is taken: the same
 *   request N seconds later goes, as Telegram's FLOOD_WAIT_N promises and the libraries' auto-retry
 *   (grammY's among them) counts on.
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

/** One client's flood state: its meter, what the tests set, when it last sent where. */
interface Flood {
	inner: BackendClient
	opts: EmulatorFloodOptions
	clock: Clock
	meter: FloodMeter
	stats: { delayed: number; refused: number }
	emit(u: unknown): void
	limited: boolean
	banned: boolean
	frozen: boolean
	tempIds: number
	/** Per supergroup chat, when this client last sent a message there (slow mode), on `clock`. */
	lastSent: Map<number, number>
}

export function withFloodLimits(inner: BackendClient, opts: EmulatorFloodOptions): BackendClient {
	const listeners: Array<(u: TdUpdate) => void> = []
	const f: Flood = {
		inner,
		opts,
		clock: opts.clock ?? wallClock,
		meter: new FloodMeter(opts.limits),
		stats: { delayed: 0, refused: 0 },
		emit: (u) => {
			for (const l of listeners) l(u as TdUpdate)
		},
		limited: false,
		banned: false,
		frozen: false,
		tempIds: 0,
		lastSent: new Map(),
	}
	inner.onUpdate((u) => {
		for (const l of listeners) l(u)
	})
	return {
		invoke: (request) => invoke(f, request),
		onUpdate(listener) {
			listeners.push(listener)
		},
		close: () => inner.close(),
	}
}

async function invoke(f: Flood, request: TdRequest): Promise<unknown> {
	const method = request._ as string
	const own = emulatorRequest(f, method)
	if (own) return own
	if (f.banned && method !== 'close') {
		// Told once, then the client logs out by itself (its auth key is no longer valid).
		queueMicrotask(
			() => void f.inner.invoke({ _: 'emulatorRevoke' } as unknown as TdRequest).catch(() => undefined),
		)
		throw new TdError(401, 'USER_DEACTIVATED_BAN')
	}
	const cls = classOfMethod(method)
	if (!cls) return f.inner.invoke(request)
	if (f.frozen && !FROZEN_ALLOWED.has(cls)) throw new TdError(420, 'FROZEN_METHOD_INVALID')
	if (f.limited && cls === 'send') throw new TdError(400, 'PEER_FLOOD')
	const chatId = (request as { chat_id?: unknown }).chat_id
	if (cls === 'send' && typeof chatId === 'number') {
		const slow = await slowModeWait(f, chatId)
		if (slow > 0) {
			f.stats.refused++
			const seconds = Math.ceil(slow / 1000)
			if (method === 'sendMessage') return pendingThenFailed(f, request, seconds)
			throw new TdError(429, `Too Many Requests: retry after ${seconds}`)
		}
	}
	const refs = keysFor(cls, typeof chatId === 'number' ? chatId : undefined)
	const now = f.clock.now()
	const at = f.meter.peek(refs, now)
	const wait = at - now
	const seconds = Math.ceil(wait / 1000)
	if (wait > 0 && seconds > f.opts.delaySeconds) {
		// Refused: it takes no moment, so the same request N seconds later goes (what auto-retry counts on).
		f.stats.refused++
		if (SENDS.has(method)) return pendingThenFailed(f, request, seconds)
		throw new TdError(429, `Too Many Requests: retry after ${seconds}`)
	}
	f.meter.take(refs, at)
	if (wait > 0) {
		f.stats.delayed++
		await sleepOn(f.clock, wait)
	}
	return f.inner.invoke(request)
}

/** The emulator-only requests of this layer (above); undefined for any other. */
function emulatorRequest(f: Flood, method: string): unknown {
	switch (method) {
		case 'emulatorFloodStats':
			return { _: 'emulatorFloodStats', delayed: f.stats.delayed, refused: f.stats.refused }
		case 'emulatorLimit':
			f.limited = true
			return { _: 'ok' }
		case 'emulatorBan':
			f.banned = true
			return { _: 'ok' }
		case 'emulatorFreeze': {
			f.frozen = true
			const now = Math.floor(Date.now() / 1000)
			queueMicrotask(() =>
				f.emit({
					_: 'updateFreezeState',
					is_frozen: true,
					freezing_date: now,
					deletion_date: now + FROZEN_DAYS * 86_400,
					appeal_link: 'https://t.me/spambot',
				}),
			)
			return { _: 'ok' }
		}
		default:
			return undefined
	}
}

/** A message refused for a wait: TDLib's pending copy now, `updateMessageSendFailed` next. */
async function pendingThenFailed(f: Flood, request: TdRequest, retryAfter: number) {
	const r = request as unknown as { chat_id?: number; input_message_content?: { text?: unknown } }
	const my = (await f.inner.invoke({ _: 'getOption', name: 'my_id' })) as { value?: string }
	const id = 2 ** 30 + ++f.tempIds
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
		f.emit({
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
async function slowModeWait(f: Flood, chatId: number): Promise<number> {
	if (chatId > -SUPERGROUP_CHAT) return 0
	const supergroup_id = -SUPERGROUP_CHAT - chatId
	const info = (await f.inner.invoke({ _: 'getSupergroupFullInfo', supergroup_id }).catch(() => undefined)) as
		| { slow_mode_delay?: number }
		| undefined
	const delayMs = (info?.slow_mode_delay ?? 0) * 1000
	if (delayMs <= 0) return 0
	const group = (await f.inner.invoke({ _: 'getSupergroup', supergroup_id }).catch(() => undefined)) as
		| { status?: { _: string } }
		| undefined
	if (group?.status && ADMINS.has(group.status._)) return 0
	const now = f.clock.now()
	const last = f.lastSent.get(chatId)
	if (last !== undefined && now - last < delayMs) return delayMs - (now - last)
	f.lastSent.set(chatId, now)
	return 0
}
