import { afterEach, describe, expect, it } from 'bun:test'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isAlive, startRuntime, type TestRuntime } from './helpers'

/**
 * A supervisor child that is told to go by a signal (Ctrl-C reaches the whole process group, a
 * service manager sends SIGTERM) closes every client, and hears each one's closed state, before
 * the process ends: no account's TDLib is left open when the process goes.
 */
let t: TestRuntime | undefined
const folders: string[] = []
afterEach(async () => {
	await t?.stop()
	t = undefined
	for (const d of folders.splice(0)) rmSync(d, { recursive: true, force: true })
})

interface Run {
	pid: number
	userbotId: number
	event: 'start' | 'stop'
}

const runsOf = (path: string): Run[] =>
	existsSync(path)
		? readFileSync(path, 'utf8')
				.split('\n')
				.filter(Boolean)
				.map((l) => JSON.parse(l) as Run)
		: []

async function exited(pid: number) {
	for (let i = 0; i < 200 && isAlive(pid); i++) await Bun.sleep(25)
	return !isAlive(pid)
}

describe('a supervisor child ended by a signal', () => {
	for (const signal of ['SIGTERM', 'SIGINT'] as const) {
		it(`closes every client before it exits (${signal})`, async () => {
			const folder = mkdtempSync(join(tmpdir(), 'ubg-runs-'))
			folders.push(folder)
			const runLog = join(folder, 'runs.jsonl')
			t = await startRuntime({ settings: { runLog } })
			for (const id of [1, 2, 3]) await t.rt.startClient(id, { encryptionKey: 'dGVzdC1rZXk=' })
			const pid = t.rt.pid as number
			process.kill(pid, signal)
			expect(await exited(pid)).toBe(true)
			const mine = runsOf(runLog).filter((r) => r.pid === pid)
			expect(mine.filter((r) => r.event === 'start').map((r) => r.userbotId)).toEqual([1, 2, 3])
			expect(
				mine
					.filter((r) => r.event === 'stop')
					.map((r) => r.userbotId)
					.sort(),
			).toEqual([1, 2, 3])
		})
	}
})
