import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { tdlibGroupCount } from '../../src/runtime/telegram/tdlib-groups'
import { startRuntime, type TestRuntime } from '../supervisor/helpers'

/**
 * Real TDLib, offline, in a supervisor child: a client's close never tears one of TDLib's client
 * groups down (src/runtime/telegram/tdlib-groups.ts), the teardown in which TDLib now and then aborts the
 * process. A group's four threads end inside the `td_receive` that hands over the closed state of
 * its last client, before that state reaches the child's code, so the threads the child has once a
 * stop is answered tell whether a group went.
 */
const API = { apiId: 1, apiHash: '0123456789abcdef0123456789abcdef' }

/** Threads of `pid` that nobody named: the main thread, tdl's receive thread and TDLib's groups. */
function unnamedThreads(pid: number): number {
	const main = readFileSync(`/proc/${pid}/comm`, 'utf8')
	let n = 0
	for (const task of readdirSync(`/proc/${pid}/task`)) {
		try {
			if (readFileSync(`/proc/${pid}/task/${task}/comm`, 'utf8') === main) n++
		} catch {
			// a thread that ended meanwhile
		}
	}
	return n
}

let t: TestRuntime
beforeAll(async () => {
	t = await startRuntime({ backend: 'tdlib', settings: { telegram: API, offline: true } })
})
afterAll(() => t.stop())

describe("TDLib's client groups in a supervisor child", () => {
	it('are all open before the first client, and none goes when every client has closed', async () => {
		const pid = t.rt.pid as number
		// Before any userbot: every group already has its four threads.
		await t.rt.startClient(1, { encryptionKey: '' })
		const withOne = unnamedThreads(pid)
		expect(withOne).toBeGreaterThanOrEqual(4 * tdlibGroupCount())
		for (const id of [2, 3, 4]) await t.rt.startClient(id, { encryptionKey: '' })
		// More clients join the groups there are: no group is made for them...
		expect(unnamedThreads(pid)).toBe(withOne)
		for (const id of [1, 2, 3, 4]) await t.rt.stopClient(id, { logOut: false, removeData: false })
		// ...and none is torn down when they close, the last one included.
		expect(t.rt.health()).toMatchObject({ clients: 0 })
		expect(unnamedThreads(pid)).toBe(withOne)
		// A client started again after that runs as before.
		expect(await t.rt.startClient(1, { encryptionKey: '' })).toBe('authorizationStateWaitPhoneNumber')
		expect(unnamedThreads(pid)).toBe(withOne)
	}, 60_000)
})
