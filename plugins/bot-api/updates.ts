import type { AppContext } from 'userbot-gateway/plugin'
import { messageOf } from './objects'

/**
 * What getUpdates hands out (docs/bot-api.md#updates): each userbot's new messages as Bot API
 * `Update`s, numbered by the userbot's live-update sequence (`update_id`), kept here for
 * KEEP_MS and at most KEEP updates. A message this server sent (on any face: TDLib's temporary
 * message, `sending_state` set) is left out, so that an echo bot does not answer itself; the
 * account's messages from its other devices are delivered.
 */
const KEEP = 1000
const KEEP_MS = 24 * 3600 * 1000

export interface BotUpdate {
	update_id: number
	message: ReturnType<typeof messageOf>
}

interface Kept {
	at: number
	update: BotUpdate
}

export function createUpdateBuffer(ctx: AppContext) {
	const buffers = new Map<number, Kept[]>()
	const waiters = new Map<number, Set<() => void>>()
	ctx.updates.want(buffers, ['updateNewMessage'])
	const stop = ctx.updates.observe((event) => {
		if (!event.live || event.kind !== 'updateNewMessage') return
		const message = event.data.message as Record<string, unknown> | undefined
		if (!message || message.sending_state) return
		const list = buffers.get(event.userbotId) ?? []
		list.push({ at: Date.now(), update: { update_id: event.seq, message: messageOf(message) } })
		if (list.length > KEEP) list.splice(0, list.length - KEEP)
		buffers.set(event.userbotId, list)
		for (const wake of waiters.get(event.userbotId) ?? []) wake()
	})
	ctx.onClose(stop)

	/** The updates from `offset` on (those before it are confirmed and dropped), at most `limit`. */
	const take = (userbotId: number, offset: number | undefined, limit: number): BotUpdate[] => {
		const now = Date.now()
		const list = (buffers.get(userbotId) ?? []).filter(
			(k) => now - k.at < KEEP_MS && (offset === undefined || k.update.update_id >= offset),
		)
		buffers.set(userbotId, list)
		return list.slice(0, limit).map((k) => k.update)
	}

	/** Waits up to `ms` for an update of the userbot (or the request's end). */
	const wait = (userbotId: number, ms: number, signal: AbortSignal) =>
		new Promise<void>((resolve) => {
			const set = waiters.get(userbotId) ?? new Set()
			waiters.set(userbotId, set)
			const done = () => {
				clearTimeout(timer)
				set.delete(done)
				signal.removeEventListener('abort', done)
				resolve()
			}
			const timer = setTimeout(done, ms)
			signal.addEventListener('abort', done, { once: true })
			set.add(done)
		})

	return {
		async get(
			userbotId: number,
			offset: number | undefined,
			limit: number,
			timeoutMs: number,
			signal: AbortSignal,
		) {
			const now = take(userbotId, offset, limit)
			if (now.length > 0 || timeoutMs <= 0) return now
			await wait(userbotId, timeoutMs, signal)
			return take(userbotId, offset, limit)
		},
	}
}
