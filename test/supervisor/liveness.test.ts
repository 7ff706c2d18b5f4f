import { afterEach, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ManualClock } from '../../src/runtime/flood/clock'
import { createChildHost } from '../../src/runtime/supervisor/child-host'
import { CLIENT_HUNG } from '../../src/runtime/supervisor/hung-client'
import type { ChildMessage } from '../../src/runtime/supervisor/protocol'
import type { Backend, BackendClient, TdUpdate } from '../../src/runtime/telegram/types'

/**
 * The child host's liveness probes on a manual clock, over clients the test controls: which one
 * answers, which one hangs, whether a close finishes. Nothing waits on a real timer.
 */
interface FakeClient extends BackendClient {
	userbotId: number
	/** Requests the client got and has not answered. */
	pending: Array<{ request: { _: string }; resolve: (v: unknown) => void }>
	hung: boolean
	closed: boolean
	asked: string[]
}

const INTERVAL = 1_000
const TIMEOUT = 5_000

function setup(opts: { hangs: (userbotId: number, incarnation: number) => boolean; closeHangs?: boolean }) {
	const dir = mkdtempSync(join(tmpdir(), 'liveness-'))
	const clock = new ManualClock()
	const sent: ChildMessage[] = []
	/** When each message was sent, on the manual clock. */
	const sentAt: number[] = []
	const made: Array<{ client: FakeClient; at: number }> = []
	const stuck: number[] = []
	const backend: Backend = {
		name: 'emulator',
		createClient(userbotId) {
			const listeners: Array<(u: TdUpdate) => void> = []
			const client: FakeClient = {
				userbotId,
				pending: [],
				// Each new client of a userbot that `hangs` hangs as soon as it is up.
				hung: false,
				closed: false,
				asked: [],
				invoke(request) {
					if (request._ !== 'testCallEmpty') client.asked.push(request._)
					return new Promise((resolve) => {
						if (client.hung) client.pending.push({ request, resolve })
						else resolve({ _: 'ok' })
					})
				},
				onUpdate: (l) => listeners.push(l),
				close() {
					client.closed = true
					return opts.closeHangs ? new Promise(() => {}) : Promise.resolve()
				},
			}
			const incarnation = made.filter((m) => m.client.userbotId === userbotId).length
			made.push({ client, at: clock.now() })
			queueMicrotask(() => {
				for (const l of listeners)
					l({
						_: 'updateAuthorizationState',
						authorization_state: { _: 'authorizationStateReady' },
					} as TdUpdate)
				client.hung = opts.hangs(userbotId, incarnation)
			})
			return client
		},
	}
	const host = createChildHost({
		backend,
		dataDir: dir,
		send: (m) => {
			sent.push(m)
			sentAt.push(clock.now())
		},
		probe: { intervalMs: INTERVAL, timeoutMs: TIMEOUT },
		stuck: (id) => stuck.push(id),
		clock,
	})
	const settle = async () => {
		for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r))
	}
	let ids = 0
	/** Every request each client was asked, probes aside. */
	const asked = (userbotId: number) =>
		made.filter((m) => m.client.userbotId === userbotId).flatMap((m) => m.client.asked)
	const request = (m: Record<string, unknown>) => {
		const id = ++ids
		host.handle({ ...m, id }, () => {})
		return id
	}
	const results = (id: number) => sent.filter((m) => m.type === 'result' && m.id === id)
	return {
		clock,
		sent,
		sentAt,
		made,
		stuck,
		settle,
		request,
		results,
		asked,
		/** Moves the clock by `ms`, letting what falls due run in between. */
		async advance(ms: number) {
			const end = clock.now() + ms
			for (;;) {
				const next = clock.next()
				if (next === undefined || next > end) break
				clock.advance(next - clock.now())
				await settle()
			}
			clock.advance(end - clock.now())
			await settle()
		},
		clientsOf: (userbotId: number) => made.filter((m) => m.client.userbotId === userbotId),
		restarting: () =>
			sent.filter(
				(m): m is Extract<ChildMessage, { type: 'client_restarting' }> => m.type === 'client_restarting',
			),
		cleanup: () => rmSync(dir, { recursive: true, force: true }),
	}
}

let cleanup = () => {}
afterEach(() => cleanup())

describe('liveness: a TDLib client that stops answering', () => {
	it('is found out by its probe and restarted alone; what it had in flight is answered once', async () => {
		const s = setup({ hangs: (id) => id === 1 })
		cleanup = s.cleanup
		const start1 = s.request({ type: 'start', userbotId: 1, encryptionKey: '' })
		const start2 = s.request({ type: 'start', userbotId: 2, encryptionKey: '' })
		await s.settle()
		expect(s.results(start1)).toHaveLength(1)
		expect(s.results(start2)).toHaveLength(1)
		// In flight in the hung client: never answered by it.
		const stuckRequest = s.request({ type: 'invoke', userbotId: 1, request: { _: 'getMe' } })
		await s.settle()
		expect(s.results(stuckRequest)).toHaveLength(0)
		// The first probe goes out, and is not answered within the timeout.
		await s.advance(INTERVAL)
		expect(s.restarting()).toHaveLength(0)
		await s.advance(TIMEOUT)
		expect(s.restarting()).toEqual([{ type: 'client_restarting', userbotId: 1 }])
		expect(s.results(stuckRequest)).toEqual([
			{ type: 'result', id: stuckRequest, ok: false, error: CLIENT_HUNG },
		])
		expect(s.clientsOf(1)[0]?.client.closed).toBe(true)
		// Sent while it restarts: waits for the new client and is answered by it.
		const during = s.request({ type: 'invoke', userbotId: 1, request: { _: 'getMe' } })
		await s.settle()
		expect(s.results(during)).toHaveLength(0)
		await s.advance(250)
		expect(s.clientsOf(1)).toHaveLength(2)
		// The old client answers at last: nothing more is said of the request it had.
		for (const p of s.clientsOf(1)[0]!.client.pending) p.resolve({ _: 'user' })
		await s.settle()
		expect(s.results(stuckRequest)).toHaveLength(1)
		// The new one hangs too (`hangs`): `during` is in it; the other userbot was never touched.
		expect(s.clientsOf(2)).toHaveLength(1)
		expect(s.restarting().every((m) => m.userbotId === 1)).toBe(true)
	})

	it('restarts with a pause that doubles with each hang in a row', async () => {
		const s = setup({ hangs: (id) => id === 1 })
		cleanup = s.cleanup
		s.request({ type: 'start', userbotId: 1, encryptionKey: '' })
		await s.settle()
		while (s.clientsOf(1).length < 5) await s.advance(INTERVAL)
		const restartedAt = s.sentAt.filter((_, i) => s.sent[i]?.type === 'client_restarting')
		// The pause between each `client_restarting` and the next client: 250, 500, 1000, 2000 ms.
		const made = s
			.clientsOf(1)
			.slice(1)
			.map((m) => m.at)
		expect(made.map((at, i) => at - restartedAt[i]!)).toEqual([250, 500, 1000, 2000])
	})

	it('a client answering its probes is never restarted', async () => {
		const s = setup({ hangs: () => false })
		cleanup = s.cleanup
		s.request({ type: 'start', userbotId: 2, encryptionKey: '' })
		await s.settle()
		await s.advance(20 * (INTERVAL + TIMEOUT))
		expect(s.restarting()).toHaveLength(0)
		expect(s.clientsOf(2)).toHaveLength(1)
	})

	it('a request held while its client restarts is not sent once its sender stopped waiting', async () => {
		const s = setup({ hangs: (id, incarnation) => id === 1 && incarnation === 0 })
		cleanup = s.cleanup
		s.request({ type: 'start', userbotId: 1, encryptionKey: '' })
		await s.settle()
		await s.advance(INTERVAL + TIMEOUT)
		expect(s.restarting()).toHaveLength(1)
		const late = s.request({ type: 'invoke', userbotId: 1, request: { _: 'getMe' }, timeoutMs: 100 })
		const inTime = s.request({ type: 'invoke', userbotId: 1, request: { _: 'getChats' }, timeoutMs: 1000 })
		await s.advance(250)
		expect(s.clientsOf(1)).toHaveLength(2)
		expect(s.results(late)).toEqual([
			{
				type: 'result',
				id: late,
				ok: false,
				error: { code: 'timeout', message: 'the client was not up in time' },
			},
		])
		expect(s.results(inTime)).toEqual([{ type: 'result', id: inTime, ok: true, value: { _: 'ok' } }])
		expect(s.asked(1)).toEqual(['getChats'])
	})

	it('a stop during the pause gives the restart up', async () => {
		const s = setup({ hangs: (id) => id === 1 })
		cleanup = s.cleanup
		s.request({ type: 'start', userbotId: 1, encryptionKey: '' })
		await s.settle()
		await s.advance(INTERVAL + TIMEOUT)
		expect(s.restarting()).toHaveLength(1)
		const stop = s.request({ type: 'stop', userbotId: 1, logOut: false, removeData: false })
		await s.settle()
		expect(s.results(stop)).toEqual([{ type: 'result', id: stop, ok: true, value: null }])
		await s.advance(10 * (INTERVAL + TIMEOUT))
		expect(s.clientsOf(1)).toHaveLength(1)
	})

	it('a hung client that does not close either: the child gives up on itself', async () => {
		const s = setup({ hangs: (id) => id === 1, closeHangs: true })
		cleanup = s.cleanup
		s.request({ type: 'start', userbotId: 1, encryptionKey: '' })
		await s.settle()
		await s.advance(INTERVAL + TIMEOUT)
		expect(s.stuck).toEqual([])
		await s.advance(TIMEOUT)
		expect(s.stuck).toEqual([1])
		expect(s.clientsOf(1)).toHaveLength(1)
	})
})
