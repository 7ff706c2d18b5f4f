import type { Principal } from '../auth/types'
import type { CommandAnswer } from '../context'
import type { Connection, Running } from './running'

/**
 * A command run for a principal without a socket (the Bot API face, docs/bot-api.md): one frame
 * through the dispatcher the WebSocket uses, so the same checks (the policy entry, the input, the
 * account's log-in), deadline, audit and metrics apply; its one reply is the answer.
 */
export function directRun(
	handle: (conn: Connection, text: string) => void,
	observe: Connection['observe'],
	principal: Principal,
	userbotId: number,
	action: string,
	input: Record<string, unknown>,
	signal?: AbortSignal,
): Promise<CommandAnswer> {
	return new Promise((resolve) => {
		let runningCount = 0
		let runningChars = 0
		const conn: Connection = {
			principal,
			signal: signal ?? new AbortController().signal,
			// The caller resolved the credential for this request a moment ago.
			admit: () => true,
			refusing: null,
			leaving: false,
			get runningCount() {
				return runningCount
			},
			get runningChars() {
				return runningChars
			},
			send(reply) {
				resolve(answerOf(reply))
				return true
			},
			started(_running: Running, chars: number) {
				runningCount++
				runningChars += chars
			},
			answered(_running: Running, chars: number, reply: string | null) {
				runningCount--
				runningChars -= chars
				if (reply === null) resolve({ ok: false, error: 'dropped' })
				else conn.send(reply)
			},
			observe,
		}
		handle(conn, JSON.stringify({ ...input, action, userbot_id: userbotId }))
	})
}

function answerOf(reply: string): CommandAnswer {
	const payload = (JSON.parse(reply) as { payload: { error?: string; result?: unknown } }).payload
	if (typeof payload.error === 'string')
		return {
			ok: false,
			error: payload.error,
			...(payload.result === undefined ? {} : { result: payload.result }),
		}
	return { ok: true, result: payload.result ?? null }
}
