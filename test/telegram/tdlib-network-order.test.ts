import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generateDatabaseKey } from '../../src/common/util/key-crypto'
import type { TdUpdate } from '../../src/runtime/telegram/types'
import { startTdlibChild, type TdlibChild } from './tdlib-child'

// Real TDLib, offline, in a child process (tdlib-child.ts): what TDLib itself received, in order,
// read from TDLib's own log of the requests it receives (`Receive request N: ...`, tag td_requests).
// `setNetworkType(networkTypeNone)` must reach TDLib before `setTdlibParameters`, or TDLib may
// start connecting first (docs/development.md#real-tdlib-offline).
let backend: TdlibChild
const root = mkdtempSync(join(tmpdir(), 'ubg-td-order-'))
// The order is the same at every start (the old order failed every run), so a few starts show it.
const STARTS = 3

/** Per TDLib client (its `#id` in the log): its database folder, and the requests it received in order. */
interface Received {
	databaseDirectory?: string
	/** Each request's method, and for `setNetworkType` the network type. */
	requests: string[]
	closed: boolean
}
const received = new Map<string, Received>()
const closeWaiters = new Map<string, () => void>()

function onLog(_level: number, message: string) {
	const m = /\[#(\d+)\][^\n]*Receive request \d+: (\w+)(?: \{\n {2}type = (\w+))?/.exec(message)
	if (!m) return
	const [, id = '', method = '', type] = m
	const client = received.get(id) ?? { requests: [], closed: false }
	received.set(id, client)
	client.requests.push(type ? `${method} ${type}` : method)
	if (method === 'setTdlibParameters')
		client.databaseDirectory = /database_directory = "([^"]*)"/.exec(message)?.[1]
	if (method === 'close' && client.databaseDirectory !== undefined) {
		client.closed = true
		closeWaiters.get(client.databaseDirectory)?.()
	}
}

/** Ours, in the order they started: clients of this test's folder only. */
const ours = () => [...received.values()].filter((c) => c.databaseDirectory?.startsWith(root))

/**
 * Resolves once TDLib has logged the `close` of the client of `databaseDirectory`: TDLib logs a
 * client's requests in the order it receives them, so all of that client's are in by then.
 */
const closeLogged = (databaseDirectory: string) =>
	new Promise<void>((resolve) => {
		if (ours().some((c) => c.databaseDirectory === databaseDirectory && c.closed)) resolve()
		else closeWaiters.set(databaseDirectory, resolve)
	})

// TDLib's log settings are the child's own: set once, gone with it.
beforeAll(async () => {
	backend = await startTdlibChild()
	// TDLib's requests, logged at level 1 to the callback only (no stream): nothing is printed.
	await backend.execute({ _: 'setLogStream', log_stream: { _: 'logStreamEmpty' } })
	await backend.execute({ _: 'setLogTagVerbosityLevel', tag: 'td_requests', new_verbosity_level: 1 })
	await backend.execute({ _: 'setLogVerbosityLevel', new_verbosity_level: 1 })
	await backend.onLog(1, onLog)
})
afterAll(async () => {
	await backend.stop()
	rmSync(root, { recursive: true, force: true })
})

describe('real TDLib: the network is held before TDLib has its parameters', () => {
	it(`${STARTS} fresh clients: networkTypeNone received before setTdlibParameters, no connection attempted`, async () => {
		const connection: string[][] = []
		for (let i = 0; i < STARTS; i++) {
			const dir = join(root, String(i))
			const databaseDirectory = join(dir, 'db')
			const client = backend.createClient({
				databaseDirectory,
				filesDirectory: join(dir, 'files'),
				encryptionKey: generateDatabaseKey(),
			})
			const states: string[] = []
			connection.push(states)
			await new Promise<void>((resolve) => {
				client.onUpdate((u: TdUpdate) => {
					if (u._ === 'updateConnectionState') states.push(u.state._)
					if (
						u._ === 'updateAuthorizationState' &&
						u.authorization_state._ === 'authorizationStateWaitPhoneNumber'
					)
						resolve()
				})
			})
			await client.network
			// Answered once TDLib has initialised and the client's network is set up (as tdlib-offline.test.ts).
			await client.invoke({ _: 'getAuthorizationState' })
			await client.close()
			await closeLogged(databaseDirectory)
		}

		const clients = ours()
		expect(clients.map((c) => c.databaseDirectory)).toEqual(
			Array.from({ length: STARTS }, (_, i) => join(root, String(i), 'db')),
		)
		for (const { requests } of clients) {
			// tdl's first request (`getOption version`), then ours; nothing else before the parameters.
			expect(requests.slice(0, requests.indexOf('setTdlibParameters'))).toEqual([
				'getOption',
				'setNetworkType networkTypeNone',
			])
			// Offline, the network is never let go.
			expect(requests.filter((r) => r.startsWith('setNetworkType'))).toEqual([
				'setNetworkType networkTypeNone',
			])
		}
		for (const states of connection) {
			expect(states.length).toBeGreaterThan(0)
			for (const state of states) expect(state).toBe('connectionStateWaitingForNetwork')
		}
	})
})
