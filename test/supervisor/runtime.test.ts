import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createEmulatorBackend, emulatorRequest } from '../../src/emulator'
import { createChildHost } from '../../src/runtime/supervisor/child-host'
import type { ChildMessage } from '../../src/runtime/supervisor/protocol'
import { RuntimeError, TdError } from '../../src/runtime/telegram/types'
import { isAlive, login, rejection, startRuntime, type TestRuntime } from './helpers'

describe.each(['socket', 'ipc'] as const)('supervisor runtime over %s', (transport) => {
	let t: TestRuntime
	beforeAll(async () => {
		t = await startRuntime({ transport })
		await login(t.rt, 1)
	})
	afterAll(() => t.stop())

	it('round-trips a request through the child', async () => {
		const me = await t.rt.invoke(1, { _: 'getMe' })
		expect(me._).toBe('user')
		expect(me.id).toBe(1002)
		expect(t.rt.authorizationState(1)).toBe('authorizationStateReady')
		expect(t.rt.health()).toEqual({ up: true, restarts: 0, clients: 1, backend: 'emulator' })
	})

	it('answers 100 concurrent requests, each with its own reply', async () => {
		const xs = Array.from({ length: 100 }, (_, i) => i)
		const answers = await Promise.all(xs.map((x) => t.rt.invoke(1, { _: 'testSquareInt', x })))
		expect(answers.map((a) => a.value)).toEqual(xs.map((x) => x * x))
	})

	it('passes TDLib errors through as TdError with code and message', async () => {
		const err = await rejection(t.rt.invoke(1, { _: 'getChat', chat_id: 424242 }))
		expect(err).toBeInstanceOf(TdError)
		expect(err).toMatchObject({ code: 400, message: 'Chat not found' })
	})

	it('rejects a request for a userbot without a client with no_client', async () => {
		const err = await rejection(t.rt.invoke(99, { _: 'getMe' }))
		expect(err).toBeInstanceOf(RuntimeError)
		expect(err).toMatchObject({ code: 'no_client' })
	})

	it('rejects with timeout when the deadline passes, and keeps answering', async () => {
		const err = await rejection(
			t.rt.invoke(1, emulatorRequest({ _: 'emulatorDelay', ms: 2_000 }), { timeoutMs: 50 }),
		)
		expect(err).toBeInstanceOf(RuntimeError)
		expect(err).toMatchObject({ code: 'timeout' })
		expect((await t.rt.invoke(1, { _: 'testCallEmpty' }))._).toBe('ok')
	})

	it('rejects with timeout when the signal aborts', async () => {
		const ac = new AbortController()
		const p = t.rt.invoke(1, emulatorRequest({ _: 'emulatorDelay', ms: 2_000 }), { signal: ac.signal })
		ac.abort()
		expect(await rejection(p)).toMatchObject({ code: 'timeout' })
	})

	it('fails every pending request with runtime_down when the child dies, then restores its clients', async () => {
		const pid = t.rt.pid!
		expect(isAlive(pid)).toBe(true)
		const pending = Array.from({ length: 50 }, () =>
			rejection(t.rt.invoke(1, emulatorRequest({ _: 'emulatorDelay', ms: 60_000 }), { timeoutMs: 60_000 })),
		)
		await t.rt.invoke(1, { _: 'testCallEmpty' })
		process.kill(pid, 'SIGKILL')
		const errors = await Promise.all(pending)
		for (const err of errors) {
			expect(err).toBeInstanceOf(RuntimeError)
			expect(err).toMatchObject({ code: 'runtime_down' })
		}
		await t.waitFor((e) => e.type === 'runtime_restarted')
		expect(t.rt.pid).not.toBe(pid)
		expect(t.rt.authorizationState(1)).toBe('authorizationStateReady')
		const me = await t.rt.invoke(1, { _: 'getMe' })
		expect(me.id).toBe(1002)
		expect(t.rt.health()).toMatchObject({ up: true, restarts: 1, clients: 1 })
	})

	it('stops a client, logging out and removing its data', async () => {
		await login(t.rt, 2, '9996611111')
		await t.rt.stopClient(2, { logOut: true, removeData: true })
		expect(t.rt.authorizationState(2)).toBeUndefined()
		expect(await rejection(t.rt.invoke(2, { _: 'getMe' }))).toMatchObject({ code: 'no_client' })
		// Started again, the client has no login left.
		expect(await t.rt.startClient(2, { encryptionKey: 'a2V5' })).toBe('authorizationStateWaitPhoneNumber')
	})
})

describe('supervisor close', () => {
	it('shuts the child down and leaves no process', async () => {
		const t = await startRuntime()
		await login(t.rt, 1)
		const pid = t.rt.pid!
		await t.stop()
		expect(isAlive(pid)).toBe(false)
		expect(t.rt.health().up).toBe(false)
		expect(await rejection(t.rt.invoke(1, { _: 'getMe' }))).toBeInstanceOf(RuntimeError)
	})
})

describe('supervisor child host', () => {
	it('answers an invalid message that has an id with bad_request', async () => {
		const dataDir = mkdtempSync(join(tmpdir(), 'ubg-host-'))
		const sent: ChildMessage[] = []
		const host = createChildHost({ backend: createEmulatorBackend(), dataDir, send: (m) => sent.push(m) })
		host.handle({ type: 'invoke', id: 5, userbotId: 'one', request: { _: 'getMe' } }, () => undefined)
		host.handle({ type: 'bogus' }, () => undefined)
		expect(sent[0]).toMatchObject({ type: 'result', id: 5, ok: false, error: { code: 'bad_request' } })
		expect(sent[1]).toMatchObject({ type: 'log', level: 'warn' })
		rmSync(dataDir, { recursive: true, force: true })
	})
})
