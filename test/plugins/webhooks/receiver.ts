import { eq } from 'drizzle-orm'
import { userbot } from '../../../db/schema'
import type { TestInstance } from '../../helpers'

/** One request the receiver got. */
export interface Received {
	/** The request's path: each endpoint of a test has its own. */
	path: string
	headers: Record<string, string>
	body: string
	json: {
		type: string
		timestamp: string
		data: { userbot_id: number | null; seq: number } & Record<string, unknown>
	}
}

type Answer = { status: number; headers?: Record<string, string>; body?: string } | 'hold'

/**
 * A webhook receiver on 127.0.0.1 (Bun.serve, a free port): records every request and answers from a
 * script (`answers`, one per request, then `otherwise`). `hold` keeps a request unanswered until
 * `releaseAll` (or the sender gives up): a delivery caught in flight.
 */
export function startReceiver() {
	const received: Received[] = []
	const answers = new Map<string, Answer[]>()
	let otherwise: Answer = { status: 200, body: 'ok' }
	const held: Array<() => void> = []
	const waiters: Array<() => void> = []
	const server = Bun.serve({
		hostname: '127.0.0.1',
		port: 0,
		async fetch(request) {
			const body = await request.text()
			const headers: Record<string, string> = {}
			request.headers.forEach((v, k) => {
				headers[k] = v
			})
			const path = new URL(request.url).pathname
			received.push({ path, headers, body, json: JSON.parse(body) })
			for (const w of waiters.splice(0)) w()
			const answer = answers.get(path)?.shift() ?? otherwise
			if (answer === 'hold') {
				await new Promise<void>((resolve) => held.push(resolve))
				return new Response('late', { status: 200 })
			}
			return new Response(answer.body ?? '', { status: answer.status, headers: answer.headers ?? {} })
		},
	})
	return {
		url: `http://127.0.0.1:${server.port}/hook`,
		port: server.port,
		received,
		/** The next answers to requests on `path`. */
		script(path: string, ...next: Answer[]) {
			answers.set(path, [...(answers.get(path) ?? []), ...next])
		},
		set otherwise(a: Answer) {
			otherwise = a
		},
		/** Waits until `pred` holds of what was received (re-checked at each request). */
		async until(pred: (r: Received[]) => boolean, ms = 10_000): Promise<void> {
			const end = Date.now() + ms
			while (!pred(received)) {
				if (Date.now() > end) throw new Error(`receiver: not within ${ms} ms (${received.length} received)`)
				await new Promise<void>((resolve) => {
					waiters.push(resolve)
					setTimeout(resolve, 50)
				})
			}
		},
		releaseAll() {
			for (const r of held.splice(0)) r()
		},
		stop() {
			this.releaseAll()
			server.stop(true)
		},
	}
}

export type Receiver = ReturnType<typeof startReceiver>

/** A userbot row of the company (no client: events are published to the hub by the test). */
export async function insertUserbot(t: TestInstance, companyId: number): Promise<number> {
	const [row] = await t.ctx.db
		.insert(userbot)
		.values({ companyId, name: 'hooked', encryptionKey: 'unused' })
		.returning({ id: userbot.id })
	return (row as { id: number }).id
}

export async function deleteUserbotRow(t: TestInstance, id: number) {
	await t.ctx.db.delete(userbot).where(eq(userbot.id, id))
}

/** A REST call with a bearer token. */
export function call(t: TestInstance, access: string | undefined) {
	return (method: string, path: string, body?: unknown) =>
		fetch(`${t.url}${path}`, {
			method,
			headers: {
				...(access ? { authorization: `Bearer ${access}` } : {}),
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
			},
			...(body === undefined ? {} : { body: JSON.stringify(body) }),
		})
}

/** Publishes a fake TDLib update of `kind` for the userbot, as the supervisor would. */
export function publish(t: TestInstance, userbotId: number, text: string, kind = 'updateNewMessage') {
	t.ctx.updates.publish(userbotId, { _: kind, message: { content: { text: { text } } } } as { _: string })
}

export const texts = (r: readonly Received[], userbotId?: number) =>
	r
		.filter((x) => userbotId === undefined || x.json.data.userbot_id === userbotId)
		.map(
			(x) =>
				(x.json.data.update as { message: { content: { text: { text: string } } } }).message.content.text
					.text,
		)

export const HOOK_ENV = {
	WEBHOOK_ALLOW_HTTP: 'true',
	WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
	WEBHOOK_RETRY_BASE: '1',
	WEBHOOK_RETRY_CAP: '4',
	WEBHOOK_POLL: '20',
}
