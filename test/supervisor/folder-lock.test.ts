import { afterEach, describe, expect, it } from 'bun:test'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Subprocess } from 'bun'
import { folderHolder } from '../../src/runtime/telegram/binlog-lock'
import { RuntimeError } from '../../src/runtime/telegram/types'
import { lockHolder } from '../telegram/lock-holder'
import { rejection, startRuntime, type TestRuntime } from './helpers'

/**
 * One owner per account, TDLib's lock the last fence (docs/shards.md#one-owner-per-account): a
 * supervisor child asked to start a userbot whose folder another process holds makes no client,
 * answers `held_elsewhere`, and its parent starts the client by itself once the other lets go.
 */
const KEY = { encryptionKey: 'dGVzdC1rZXk=' }
let t: TestRuntime | undefined
let other: Subprocess | undefined
const folders: string[] = []
afterEach(async () => {
	for (const d of folders.splice(0)) rmSync(d, { recursive: true, force: true })
	other?.kill('SIGKILL')
	await other?.exited
	other = undefined
	await t?.stop()
	t = undefined
})

const runsOf = (path: string) =>
	existsSync(path)
		? readFileSync(path, 'utf8')
				.split('\n')
				.filter(Boolean)
				.map((l) => JSON.parse(l) as { userbotId: number; event: string })
		: []

describe('a userbot whose TDLib folder another process holds', () => {
	it('is not started, is told held elsewhere, and starts once the other lets go', async () => {
		const logs = mkdtempSync(join(tmpdir(), 'ubg-runs-'))
		folders.push(logs)
		const runLog = join(logs, 'runs.jsonl')
		t = await startRuntime({ settings: { runLog } })
		const folder = join(t.dataDir, 'tdlib', '1', 'db')
		mkdirSync(folder, { recursive: true })
		other = await lockHolder(folder)

		const refused = await rejection(t.rt.startClient(1, KEY))
		expect(refused).toBeInstanceOf(RuntimeError)
		expect(refused).toMatchObject({ code: 'held_elsewhere' })
		// While the other holds it, requests are told so too, and nothing of this child touched it.
		expect(await rejection(t.rt.invoke(1, { _: 'getAuthorizationState' }))).toMatchObject({
			code: 'held_elsewhere',
		})
		expect(t.rt.holds(1)).toBe(true)
		expect(folderHolder(folder)).toBe(other.pid)
		expect(runsOf(runLog).filter((r) => r.userbotId === 1)).toEqual([])

		// The other lets go: the parent's next try starts the client, with no request of anyone.
		other.kill('SIGKILL')
		await other.exited
		other = undefined
		await t.waitFor(
			(e) =>
				e.type === 'authorization_state' &&
				e.userbotId === 1 &&
				e.state === 'authorizationStateWaitPhoneNumber',
		)
		expect(await t.rt.invoke(1, { _: 'getAuthorizationState' })).toEqual({
			_: 'authorizationStateWaitPhoneNumber',
		})
		expect(folderHolder(folder)).toBe(t.rt.pid as number)
		expect(
			runsOf(runLog)
				.filter((r) => r.userbotId === 1)
				.map((r) => r.event),
		).toEqual(['start'])
	})

	it('stopped while it waits, is not started when the other lets go', async () => {
		t = await startRuntime()
		const folder = join(t.dataDir, 'tdlib', '2', 'db')
		mkdirSync(folder, { recursive: true })
		other = await lockHolder(folder)
		expect(await rejection(t.rt.startClient(2, KEY))).toMatchObject({ code: 'held_elsewhere' })
		await t.rt.stopClient(2, { logOut: false, removeData: false })
		expect(t.rt.holds(2)).toBe(false)
		expect(await rejection(t.rt.invoke(2, { _: 'getAuthorizationState' }))).toMatchObject({
			code: 'no_client',
		})
	})
})
