import { SEED_CHATS } from '../../src/emulator'

/**
 * Many authenticated WebSockets held open at once, each sending commands of all five groups and
 * matching the replies: how many were answered, lost, answered twice or failed, and the latency of
 * each. Shared by the CI test (properties) and test/bench/reliability.ts (figures).
 */
export interface ManyResult {
	opened: number
	sent: number
	answered: number
	lost: number
	duplicates: number
	errors: Map<string, number>
	/** Milliseconds from send to reply, one per answered command. */
	latencies: number[]
}

/** One command of each group that reaches TDLib. */
export function groupCommand(userbotId: number, n: number): Record<string, unknown> {
	const frames: Array<Record<string, unknown>> = [
		{ action: 'get_default_message_auto_delete_time' },
		{ action: 'get_active_sessions' },
		{ action: 'get_password_state' },
		{ action: 'get_chat_members', chat_id: SEED_CHATS.supergroup },
		{ action: 'get_chat_invite_links', chat_id: SEED_CHATS.supergroup, creator_user_id: 1002 },
	]
	return { ...frames[n % frames.length]!, userbot_id: userbotId }
}

export interface ManyOptions {
	url: string
	/** Bearer tokens, used in turn by the sockets. */
	tokens: readonly string[]
	userbotId: number
	sockets: number
	/** Commands each socket sends, one after the other. */
	perSocket: number
	/** Called once every socket is open, before any command (a sample of the server's state). */
	whenOpen?: () => void | Promise<void>
	/** Waits this long for late replies after the last one. */
	quietMs?: number
}

export async function runManyConnections(opts: ManyOptions): Promise<ManyResult> {
	const wsUrl = `${opts.url.replace(/^http/, 'ws')}/ws`
	const result: ManyResult = {
		opened: 0,
		sent: 0,
		answered: 0,
		lost: 0,
		duplicates: 0,
		errors: new Map(),
		latencies: [],
	}
	const sockets: WebSocket[] = []
	const sentAt = new Map<string, number>()
	const seen = new Set<string>()
	const waiters = new Map<string, () => void>()
	// Opened in waves: a thousand upgrades at once would only measure the accept queue.
	for (let i = 0; i < opts.sockets; i += 100) {
		const wave = Array.from({ length: Math.min(100, opts.sockets - i) }, (_, k) => {
			const ws = new WebSocket(wsUrl, {
				headers: { authorization: `Bearer ${opts.tokens[(i + k) % opts.tokens.length]}` },
			} as unknown as string[])
			ws.onmessage = (event) => {
				const m = JSON.parse(String(event.data)) as { payload?: { request_id?: string; error?: string } }
				const id = m.payload?.request_id
				if (typeof id !== 'string') return
				if (seen.has(id)) {
					result.duplicates++
					return
				}
				seen.add(id)
				result.answered++
				result.latencies.push(performance.now() - (sentAt.get(id) ?? performance.now()))
				const error = m.payload?.error
				if (error !== undefined) result.errors.set(error, (result.errors.get(error) ?? 0) + 1)
				waiters.get(id)?.()
			}
			sockets.push(ws)
			return new Promise<void>((resolve, reject) => {
				ws.onopen = () => {
					result.opened++
					resolve()
				}
				ws.onerror = () => reject(new Error('WebSocket upgrade failed'))
			})
		})
		await Promise.all(wave)
	}
	await opts.whenOpen?.()
	await Promise.all(
		sockets.map(async (ws, s) => {
			for (let n = 0; n < opts.perSocket; n++) {
				const id = `${s}-${n}`
				const answered = new Promise<void>((resolve) => {
					waiters.set(id, resolve)
					setTimeout(resolve, 30_000)
				})
				sentAt.set(id, performance.now())
				result.sent++
				ws.send(JSON.stringify({ ...groupCommand(opts.userbotId, s + n), request_id: id }))
				await answered
				waiters.delete(id)
			}
		}),
	)
	await Bun.sleep(opts.quietMs ?? 200)
	result.lost = result.sent - result.answered
	for (const ws of sockets) ws.close()
	return result
}
