import { LIBRARY_WORDING } from '../gateway/schema-fields'
import type { Frame } from './frame-arbitraries'

/**
 * Sends fuzzed frames over one real WebSocket and checks what comes back: every frame gets exactly
 * one reply, none twice, none carrying a stack or a library's wording, and the socket stays open.
 * Frames of a batch are sent at once (a batch stays under the gateway's in-flight cap of 256), then
 * the driver waits until every frame sent so far is answered.
 */

/** What a stack, a query or a library's error looks like in a message. */
export const LEAK =
	/\n\s+at |\bat .+\.(ts|js|mjs):\d+|node_modules|\/src\/|\b(Type|Reference|Syntax|Range)Error\b|Failed query|SQLITE_|\bstack\b/

export interface FuzzTotals {
	frames: number
	replies: number
	/** Live updates received (the fuzz subscribes too). */
	updates: number
	/** Frames with a request id of ours that got no reply. */
	lost: number
	/** Replies beyond one for a frame. */
	duplicates: number
	/** Replies that leaked a stack, a query or a library's wording (at most 20 kept). */
	leaks: string[]
	/** The socket closed without being asked to. */
	closedUnexpectedly: { code: number; reason: string } | null
	/** Replies by outcome: `ok` or the error string. */
	outcomes: Map<string, number>
	/** Milliseconds from send to reply of each frame with a request id of ours. */
	latencies: number[]
}

export interface FuzzSocket {
	/** Sends the frames and waits for their replies (or `timeoutMs`); the problems of this batch. */
	runBatch(frames: readonly Frame[], timeoutMs: number): Promise<string[]>
	/** Waits `quietMs` for anything late (a second reply), then closes; the totals. */
	finish(quietMs: number): Promise<FuzzTotals>
	totals: FuzzTotals
}

const TRACKED = /^fz\d+$/

export function describeFrame(frame: Frame): string {
	const text =
		frame.kind === 'json'
			? JSON.stringify(frame.value)
			: frame.kind === 'text'
				? frame.text
				: `<${frame.bytes.length} bytes>`
	return text.length > 300 ? `${text.slice(0, 300)}...` : text
}

export async function openFuzzSocket(baseUrl: string, access: string): Promise<FuzzSocket> {
	const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws`, {
		headers: { authorization: `Bearer ${access}` },
	} as unknown as string[])
	const totals: FuzzTotals = {
		frames: 0,
		replies: 0,
		updates: 0,
		lost: 0,
		duplicates: 0,
		leaks: [],
		closedUnexpectedly: null,
		outcomes: new Map(),
		latencies: [],
	}
	const answered = new Map<string, number>()
	const sentFrames = new Map<string, Frame>()
	const sentAt = new Map<string, number>()
	const batchProblems: string[] = []
	let closing = false
	let wake = () => {}
	const leak = (what: string) => {
		batchProblems.push(what)
		if (totals.leaks.length < 20) totals.leaks.push(what)
	}

	ws.onmessage = (event) => {
		const text = String(event.data)
		let m: { type?: string; payload?: { type?: unknown; error?: unknown; request_id?: unknown } }
		try {
			m = JSON.parse(text)
		} catch {
			leak(`a message that is not JSON: ${text.slice(0, 200)}`)
			return
		}
		if (m.type === 'update' || m.type === 'resync') {
			totals.updates++
			return
		}
		if (m.type !== 'chat_update' || typeof m.payload !== 'object' || m.payload === null) {
			leak(`a message of no known shape: ${text.slice(0, 200)}`)
			return
		}
		// A push, not a reply: the company's userbots' log-in states and health (a log-out or restart
		// drawn by the fuzz stops and starts its client: `userbot_status`, docs/flood-and-health.md).
		if (m.payload.type === 'authorization_state' || m.payload.type === 'userbot_status') return
		totals.replies++
		if (LEAK.test(text)) leak(`a reply leaks: ${text.slice(0, 300)}`)
		const error = m.payload.error
		const outcome = typeof error === 'string' ? error : 'ok'
		totals.outcomes.set(outcome, (totals.outcomes.get(outcome) ?? 0) + 1)
		if (error !== undefined && (typeof error !== 'string' || error === '' || LIBRARY_WORDING.test(error))) {
			leak(`a reply's error is not ours: ${text.slice(0, 300)}`)
		}
		const id = m.payload.request_id
		if (typeof id === 'string' && TRACKED.test(id)) {
			const n = (answered.get(id) ?? 0) + 1
			answered.set(id, n)
			const at = sentAt.get(id)
			if (n === 1 && at !== undefined) totals.latencies.push(performance.now() - at)
			if (n > 1) {
				totals.duplicates++
				const sent = sentFrames.get(id)
				batchProblems.push(`a second reply to ${sent ? describeFrame(sent) : id}: ${text.slice(0, 200)}`)
			}
		}
		wake()
	}
	const closed = new Promise<void>((resolve) => {
		ws.onclose = (event) => {
			if (!closing) {
				totals.closedUnexpectedly = { code: event.code, reason: event.reason }
				batchProblems.push(`the socket closed: ${event.code} ${event.reason}`)
			}
			wake()
			resolve()
		}
	})
	await new Promise<void>((resolve, reject) => {
		ws.onopen = () => resolve()
		ws.onerror = () => reject(new Error('WebSocket upgrade failed'))
	})

	let next = 0
	return {
		totals,
		async runBatch(frames, timeoutMs) {
			batchProblems.length = 0
			const ids: string[] = []
			for (const frame of frames) {
				totals.frames++
				if (frame.kind === 'json') {
					const value = { ...frame.value }
					if (frame.tracked) {
						const id = `fz${++next}`
						value.request_id = id
						ids.push(id)
						sentFrames.set(id, frame)
						sentAt.set(id, performance.now())
					} else if (typeof value.request_id === 'string' && TRACKED.test(value.request_id)) {
						delete value.request_id
					}
					ws.send(JSON.stringify(value))
				} else if (frame.kind === 'text') {
					ws.send(frame.text)
				} else {
					ws.send(frame.bytes)
				}
			}
			const until = performance.now() + timeoutMs
			while (totals.replies < totals.frames && !totals.closedUnexpectedly && performance.now() < until) {
				await new Promise<void>((resolve) => {
					wake = resolve
					setTimeout(resolve, 50)
				})
			}
			for (const id of ids) {
				if (!answered.has(id)) {
					totals.lost++
					batchProblems.push(`no reply to ${describeFrame(sentFrames.get(id)!)}`)
				}
				sentFrames.delete(id)
				sentAt.delete(id)
			}
			if (totals.replies < totals.frames && ids.every((id) => answered.has(id))) {
				batchProblems.push(`${totals.frames - totals.replies} frame(s) without a request id got no reply`)
			}
			return [...batchProblems]
		},
		async finish(quietMs) {
			await Bun.sleep(quietMs)
			// Replies past one per frame, tracked or not.
			const excess = totals.replies - totals.frames
			if (excess > totals.duplicates) totals.duplicates = excess
			totals.lost = Math.max(totals.lost, totals.frames - totals.replies)
			closing = true
			ws.close()
			await closed
			return totals
		},
	}
}

/** A frame over `bytes` closes the socket with 1009; what came back before and the close. */
export async function sendOversize(baseUrl: string, access: string, bytes: number) {
	const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws`, {
		headers: { authorization: `Bearer ${access}` },
	} as unknown as string[])
	const messages: string[] = []
	ws.onmessage = (e) => {
		// Under the limit: the one reply, then the client hangs up.
		messages.push(String(e.data))
		ws.close()
	}
	const close = new Promise<{ code: number; reason: string }>((resolve) => {
		ws.onclose = (e) => resolve({ code: e.code, reason: e.reason })
	})
	await new Promise<void>((resolve, reject) => {
		ws.onopen = () => resolve()
		ws.onerror = () => reject(new Error('WebSocket upgrade failed'))
	})
	const filler = 'x'.repeat(bytes)
	ws.send(`{"action":"send_message","userbot_id":1,"text":"${filler}","request_id":"big"}`)
	const timer = setTimeout(() => ws.close(), 10_000)
	const result = await close
	clearTimeout(timer)
	return { close: result, messages }
}
