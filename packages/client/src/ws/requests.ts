import { ClientError, CommandFailed } from './errors'
import type { ChatUpdate, RequestId } from './types'

type Payload = ChatUpdate['payload']

interface Pending {
	resolve(payload: Payload): void
	reject(err: Error): void
	timer: ReturnType<typeof setTimeout>
}

/** The requests sent and not yet answered, by `request_id`: each with its deadline and abort signal. */
export interface RequestTable {
	/** Sends `frame` with a new request id; settles with the reply's payload, or rejects at the deadline or abort. */
	send(
		socket: { send(data: string): void },
		frame: Record<string, unknown> & { action: string },
		timeoutMs: number,
		signal?: AbortSignal,
	): Promise<Payload>
	/** Hands a reply to the request it answers; false when none waits for it (an event). */
	answer(id: RequestId | undefined, payload: Payload): boolean
	/** Rejects every request still waiting. */
	failAll(err: Error): void
}

export function createRequestTable(): RequestTable {
	const pending = new Map<RequestId, Pending>()
	let counter = 0
	return {
		send(socket, frame, ms, signal) {
			const id = `c${++counter}`
			return new Promise<Payload>((resolve, reject) => {
				const timer = setTimeout(() => {
					pending.delete(id)
					reject(new ClientError('timeout', `no reply to ${frame.action} within ${ms} ms`))
				}, ms)
				pending.set(id, { resolve, reject, timer })
				signal?.addEventListener('abort', () => {
					if (!pending.delete(id)) return
					clearTimeout(timer)
					reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'))
				})
				socket.send(JSON.stringify({ ...frame, request_id: id }))
			})
		},
		answer(id, payload) {
			const waiter = id === undefined ? undefined : pending.get(id)
			if (id === undefined || !waiter) return false
			pending.delete(id)
			clearTimeout(waiter.timer)
			waiter.resolve(payload)
			return true
		},
		failAll(err) {
			for (const [id, p] of pending) {
				pending.delete(id)
				clearTimeout(p.timer)
				p.reject(err)
			}
		},
	}
}

/** A reply's result, or `CommandFailed` when it is `<action>_error`. */
export function resultOf(action: string, payload: Payload): unknown {
	if (payload.type === action) return payload.result
	throw new CommandFailed(action, payload.error ?? 'unknown error', payload.result)
}
