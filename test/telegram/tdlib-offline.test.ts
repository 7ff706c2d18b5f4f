import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createLogger } from '../../src/common/util/logger'
import { createRuntime } from '../../src/runtime/supervisor'
import { RuntimeError, TdError, type TdUpdate } from '../../src/runtime/telegram/types'
import { loadConfig } from '../../src/server/config'
import { isAlive, rejection, startRuntime, type TestRuntime } from '../supervisor/helpers'
import { startTdlibChild } from './tdlib-child'

// Real TDLib with a fake API id, told `networkTypeNone` before anything else: nothing leaves
// this machine, and everything that needs Telegram's servers never answers.
const API = { apiId: 1, apiHash: '0123456789abcdef0123456789abcdef' }

describe('real TDLib backend, offline', () => {
	it('reaches WaitPhoneNumber while the connection waits for the network', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'ubg-td-'))
		// The service's backend, in a process of its own (tdlib-child.ts).
		const backend = await startTdlibChild()
		const client = backend.createClient({
			databaseDirectory: join(dir, 'db'),
			filesDirectory: join(dir, 'files'),
			encryptionKey: '',
		})
		const connection: string[] = []
		const phone = new Promise<void>((resolve) => {
			client.onUpdate((u: TdUpdate) => {
				if (u._ === 'updateConnectionState') connection.push(u.state._)
				if (
					u._ === 'updateAuthorizationState' &&
					u.authorization_state._ === 'authorizationStateWaitPhoneNumber'
				) {
					resolve()
				}
			})
		})
		await phone
		// A local request answered after the network state settled: nothing tried to connect.
		expect(await client.invoke({ _: 'getAuthorizationState' })).toEqual({
			_: 'authorizationStateWaitPhoneNumber',
		})
		expect(await client.invoke({ _: 'getOption', name: 'version' })).toEqual({
			_: 'optionValueString',
			value: '1.8.65',
		})
		expect(connection.length).toBeGreaterThan(0)
		for (const state of connection) expect(state).toBe('connectionStateWaitingForNetwork')
		await client.close()
		await backend.stop()
		rmSync(dir, { recursive: true, force: true })
	})
})

describe('real TDLib through the supervisor child, offline', () => {
	let t: TestRuntime
	beforeAll(async () => {
		t = await startRuntime({
			backend: 'tdlib',
			settings: { telegram: API, offline: true },
		})
	})
	afterAll(() => t.stop())

	it('starts a client that waits for a phone number', async () => {
		expect(await t.rt.startClient(1, { encryptionKey: 'c2VjcmV0LWtleQ==' })).toBe(
			'authorizationStateWaitPhoneNumber',
		)
		expect(t.rt.authorizationState(1)).toBe('authorizationStateWaitPhoneNumber')
		expect(t.rt.health()).toMatchObject({ up: true, backend: 'tdlib', clients: 1 })
	})

	it('answers getMe with TDLib 401 Unauthorized', async () => {
		const err = await rejection(t.rt.invoke(1, { _: 'getMe' }))
		expect(err).toBeInstanceOf(TdError)
		expect(err).toMatchObject({ code: 401, message: 'Unauthorized' })
	})

	it('times out a request that needs the network, then still answers', async () => {
		const err = await rejection(
			t.rt.invoke(1, { _: 'setAuthenticationPhoneNumber', phone_number: '9996621234' }, { timeoutMs: 300 }),
		)
		expect(err).toBeInstanceOf(RuntimeError)
		expect(err).toMatchObject({ code: 'timeout' })
		const state = await t.rt.invoke(1, { _: 'getAuthorizationState' })
		expect(state._).toBe('authorizationStateWaitPhoneNumber')
	})

	it('closes the child and its TDLib clients', async () => {
		const pid = t.rt.pid!
		await t.rt.close()
		expect(isAlive(pid)).toBe(false)
	})
})

describe('createRuntime', () => {
	it('is null for the tdlib backend without API credentials, a runtime for the emulator', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'ubg-cfg-'))
		const log = createLogger('silent')
		expect(await createRuntime(loadConfig({ DATA_DIR: dir, TDLIB_BACKEND: 'tdlib' }), log)).toBeNull()
		const rt = await createRuntime(loadConfig({ DATA_DIR: dir, TDLIB_BACKEND: 'emulator' }), log)
		expect(rt?.health()).toMatchObject({ up: true, backend: 'emulator', clients: 0 })
		await rt?.close()
		rmSync(dir, { recursive: true, force: true })
	})
})
