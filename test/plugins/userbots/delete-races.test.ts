import { afterAll, describe, expect, it } from 'bun:test'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { userbot } from '../../../db/schema'
import type { TelegramRuntime } from '../../../src/runtime/supervisor/types'
import type { AppContext } from '../../../src/server/context'
import { getTestInstance } from '../../helpers'
import { type ChatUpdate, connectWs } from '../../helpers-ws'
import {
	createUserbot,
	logInOverRest,
	PLAIN_ACCOUNT,
	removeDir,
	type Server,
	serve,
	serveFresh,
	signUp,
	tempDir,
	until,
} from './support'

/** Races between a delete and whatever else touches the userbot: nothing comes back to life. */
const dirs: string[] = []
const servers: Server[] = []
afterAll(async () => {
	for (const s of servers) await s.halt().catch(() => undefined)
	for (const d of dirs) removeDir(d)
})

type Runtime = TelegramRuntime & { readonly pid: number | undefined }
const runtimeOf = (server: Server) => server.ctx.runtime as Runtime

const stateOf = (m: ChatUpdate) =>
	m.payload.type === 'authorization_state'
		? String((m.payload.result as { authorization_state?: unknown } | undefined)?.authorization_state)
		: undefined

/**
 * Holds the answer of the next (after `skip`) `select ... from userbot` the app makes until `release`: the moment
 * just after a step's lookup found the (still live) row. Every other query goes through untouched.
 */
function pauseNextUserbotRead(ctx: AppContext, skip = 0) {
	const db = ctx.db
	let armed = true
	let skipped = 0
	let reached = () => {}
	const reachedP = new Promise<void>((r) => {
		reached = r
	})
	let release = () => {}
	const released = new Promise<void>((r) => {
		release = r
	})
	const wrapFrom = (builder: object) =>
		new Proxy(builder, {
			get(target, prop) {
				const value: unknown = Reflect.get(target, prop, target)
				if (prop !== 'from' || typeof value !== 'function') return value
				return (table: unknown, ...rest: unknown[]) => {
					const query = value.call(target, table, ...rest) as PromiseLike<unknown> & object
					if (!armed || table !== userbot) return query
					if (skipped++ < skip) return query
					armed = false
					return new Proxy(query, {
						get(q, p, receiver) {
							if (p !== 'then') return Reflect.get(q, p, receiver)
							// The row is read now; the caller gets it only after the release.
							return (ok: (v: unknown) => unknown, fail: (e: unknown) => unknown) =>
								q
									.then(async (rows) => {
										reached()
										await released
										return rows
									})
									.then(ok, fail)
						},
					})
				}
			},
		})
	ctx.db = new Proxy(db, {
		get(target, prop) {
			const value: unknown = Reflect.get(target, prop, target)
			if (typeof value !== 'function') return value
			if (prop !== 'select') return value.bind(target)
			return (...args: unknown[]) => wrapFrom(value.apply(target, args) as object)
		},
	})
	return {
		reached: reachedP,
		release() {
			ctx.db = db
			release()
		},
	}
}

describe('deleting a userbot', () => {
	it('does not bring it back when a log-in step had found it just before', async () => {
		const dataDir = tempDir()
		dirs.push(dataDir)
		let server = await serve(dataDir)
		servers.push(server)
		const owner = await signUp(server.url)
		const ws = await connectWs(server.url, { bearer: owner.access })
		const id = await createUserbot(owner)
		await ws.take((m) => m.userbot_id === id && stateOf(m) === 'authorizationStateWaitPhoneNumber')

		const gate = pauseNextUserbotRead(server.ctx)
		const step = owner.call('POST', `/api/userbots/${id}/phone/`, { phone_number: PLAIN_ACCOUNT.phone })
		await gate.reached
		expect((await owner.call('DELETE', `/api/userbots/${id}/`)).status).toBe(204)
		const seenBefore = ws.received.length
		gate.release()
		const answer = await step
		expect(answer.status).toBe(404)

		expect(runtimeOf(server).authorizationState(id)).toBeUndefined()
		expect(runtimeOf(server).health().clients).toBe(0)
		expect(existsSync(join(dataDir, 'tdlib', String(id)))).toBe(false)
		// Closing the app waits for every state event to be pushed and stored.
		await server.halt()
		await ws.closed
		const after = ws.received.slice(seenBefore).filter((m) => m.userbot_id === id)
		// At most the deleted client's own closing, which reaches its company as it is stored, and may
		// come after the 204; no new client's state (one started again would say WaitPhoneNumber first).
		const states = after.map(stateOf).filter((s) => s !== undefined)
		const closing = ['authorizationStateClosing', 'authorizationStateClosed']
		expect(states).toEqual(closing.slice(closing.length - states.length))

		server = await serve(dataDir)
		servers.push(server)
		const [row] = await server.ctx.db.select().from(userbot).where(eq(userbot.id, id))
		expect(row?.deletedAt).toBeNumber()
		expect(row?.authorizationState).toBe('authorizationStateWaitPhoneNumber')
		expect(row?.phoneNumber).toBeNull()
		expect(runtimeOf(server).health().clients).toBe(0)
	})

	it('does not bring its folder back when an upload had found it just before', async () => {
		const server = await serveFresh()
		const owner = await signUp(server.url)
		const ws = await connectWs(server.url, { bearer: owner.access })
		const id = await createUserbot(owner)
		// The state tracker reads the row too: let it finish before pausing the upload's own read.
		await ws.take((m) => m.userbot_id === id && stateOf(m) === 'authorizationStateWaitPhoneNumber')
		// The files route reads the row twice (its check, then the upload's own): pause the second.
		const gate = pauseNextUserbotRead(server.ctx, 1)
		const form = new FormData()
		form.append('file', new File(['late'], 'late.txt'))
		const upload = fetch(`${server.url}/api/userbots/${id}/files/`, {
			method: 'POST',
			headers: { authorization: `Bearer ${owner.access}` },
			body: form,
		})
		await gate.reached
		expect((await owner.call('DELETE', `/api/userbots/${id}/`)).status).toBe(204)
		gate.release()
		expect((await upload).status).toBe(404)
		expect(existsSync(join(server.dataDir, 'tdlib', String(id)))).toBe(false)
		ws.close()
		await server.dispose()
	})

	it('answers 404, not TDLib\'s "Request aborted", to a step the delete cut short', async () => {
		const server = await serveFresh()
		try {
			const owner = await signUp(server.url)
			const id = await createUserbot(owner)
			const runtime = runtimeOf(server)
			// Offline, TDLib's setAuthenticationPhoneNumber waits for the network until the client closes.
			await runtime.invoke(id, { _: 'setNetworkType', type: { _: 'networkTypeNone' } })
			const invoke = runtime.invoke.bind(runtime)
			let sent = () => {}
			const phoneSent = new Promise<void>((r) => {
				sent = r
			})
			runtime.invoke = ((userbotId, request, opts) => {
				const reply = invoke(userbotId, request, opts)
				if (request._ === 'setAuthenticationPhoneNumber') sent()
				return reply
			}) as typeof runtime.invoke
			const step = owner.call('POST', `/api/userbots/${id}/phone/`, { phone_number: PLAIN_ACCOUNT.phone })
			await phoneSent
			expect((await owner.call('DELETE', `/api/userbots/${id}/`)).status).toBe(204)
			const answer = await step
			expect(await answer.json()).toEqual({ detail: 'Not found.' })
			expect(answer.status).toBe(404)
		} finally {
			await server.dispose()
		}
	})

	it('warns, naming the userbot, when it could not be logged out of Telegram', async () => {
		const logLines: string[] = []
		// A short step deadline: the logOut below never answers, as offline TDLib's does not.
		const server = await getTestInstance({ COMMAND_TIMEOUT: '300' }, { logLines })
		try {
			const owner = await signUp(server.url)
			const id = await createUserbot(owner)
			await logInOverRest(owner, id)
			const runtime = runtimeOf(server)
			expect(runtime.authorizationState(id)).toBe('authorizationStateReady')
			await runtime.invoke(id, { _: 'setNetworkType', type: { _: 'networkTypeNone' } })
			expect((await owner.call('DELETE', `/api/userbots/${id}/`)).status).toBe(204)
			const warnings = logLines
				.map((l) => JSON.parse(l) as { level: string; msg: string; userbotId?: number })
				.filter((l) => l.level === 'warn' && l.userbotId === id)
			expect(warnings.map((w) => w.msg).join('\n')).toContain('Telegram session may still be active')
			expect(existsSync(join(server.dataDir, 'tdlib', String(id)))).toBe(false)
		} finally {
			await server.stop()
		}
	})
})

describe('restoring the clients after a supervisor restart', () => {
	it('does not start a userbot deleted after its row was read', async () => {
		const logLines: string[] = []
		const server = await getTestInstance({}, { logLines })
		try {
			const owner = await signUp(server.url)
			const id = await createUserbot(owner)
			const runtime = runtimeOf(server)
			const restored = () => logLines.filter((l) => l.includes('"userbots restored"')).length
			const before = restored()
			const gate = pauseNextUserbotRead(server.ctx)
			process.kill(runtime.pid ?? 0, 'SIGKILL')
			// The restore has read the live rows, this userbot's among them.
			await gate.reached
			expect((await owner.call('DELETE', `/api/userbots/${id}/`)).status).toBe(204)
			gate.release()
			await until(() => restored() > before, 20_000)
			expect(runtime.authorizationState(id)).toBeUndefined()
			expect(runtime.health().clients).toBe(0)
			expect(existsSync(join(server.dataDir, 'tdlib', String(id)))).toBe(false)
		} finally {
			await server.stop()
		}
	})
})

describe('creating a userbot while the supervisor dies', () => {
	it('leaves no client for the next supervisor to start, and no folder', async () => {
		const server = await serveFresh()
		try {
			const owner = await signUp(server.url)
			const runtime = runtimeOf(server)
			const startClient = runtime.startClient.bind(runtime)
			let created = 0
			runtime.startClient = (userbotId, opts) => {
				runtime.startClient = startClient
				created = userbotId
				const started = startClient(userbotId, opts)
				process.kill(runtime.pid ?? 0, 'SIGKILL')
				return started
			}
			const answer = await owner.call('POST', '/api/userbots/', {})
			expect(answer.status).toBe(503)
			expect(created).toBeGreaterThan(0)
			await until(() => {
				const h = runtime.health()
				return h.up && h.restarts > 0
			}, 20_000)
			expect(runtime.health().clients).toBe(0)
			expect(runtime.authorizationState(created)).toBeUndefined()
			expect(existsSync(join(server.dataDir, 'tdlib', String(created)))).toBe(false)
			expect(await (await owner.call('GET', '/api/userbots/')).json()).toEqual([])
		} finally {
			await server.dispose()
		}
	})
})
