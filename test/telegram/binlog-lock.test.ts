import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
	BINLOG,
	folderHolder,
	heldByAnotherProcess,
	heldInThisProcess,
	lockFolder,
} from '../../src/runtime/telegram/binlog-lock'
import { TdError, type TdUpdate } from '../../src/runtime/telegram/types'
import { lockHolder } from './lock-holder'
import { startTdlibChild, type TdlibChild } from './tdlib-child'

/**
 * The folder lock the emulator takes is real TDLib's (src/runtime/telegram/binlog-lock.ts): a POSIX write
 * lock on `td.binlog`, seen by the other processes, refused in TDLib's words; real TDLib (offline,
 * in the tests' TDLib child) and the emulator's lock refuse each other.
 */
const root = mkdtempSync(join(tmpdir(), 'ubg-lock-'))
let td: TdlibChild
beforeAll(async () => {
	td = await startTdlibChild()
})
afterAll(async () => {
	await td.stop()
	rmSync(root, { recursive: true, force: true })
})

let n = 0
const folder = () => {
	const dir = join(root, String(++n))
	mkdirSync(dir)
	return dir
}

const waitPhone = (onUpdate: (l: (u: TdUpdate) => void) => void) =>
	new Promise<void>((resolve) =>
		onUpdate((u) => {
			if (
				u._ === 'updateAuthorizationState' &&
				u.authorization_state._ === 'authorizationStateWaitPhoneNumber'
			)
				resolve()
		}),
	)

describe("a TDLib folder's lock", () => {
	it('is held by one process: the others see who, and are refused in TDLib words', async () => {
		const dir = folder()
		expect(folderHolder(dir)).toBeNull()
		const other = await lockHolder(dir)
		try {
			expect(folderHolder(dir)).toBe(other.pid)
			const refused = await lockFolder(dir, 2).catch((err: unknown) => err)
			expect(refused).toBeInstanceOf(TdError)
			expect(refused).toMatchObject({ code: 400, message: heldByAnotherProcess(join(dir, BINLOG)) })
		} finally {
			other.kill('SIGKILL')
			await other.exited
		}
		// Its holder gone (killed: the kernel lets go), the folder is free.
		expect(folderHolder(dir)).toBeNull()
		const lock = await lockFolder(dir, 2)
		lock.release()
	})

	it('is held by one client of a process at a time, the next one waiting for it', async () => {
		const dir = folder()
		const first = await lockFolder(dir)
		const refused = await lockFolder(dir, 2).catch((err: unknown) => err)
		expect(refused).toMatchObject({ code: 400, message: heldInThisProcess(join(dir, BINLOG)) })
		const waiting = lockFolder(dir)
		first.release()
		const second = await waiting
		// Its own lock, told without opening the file again (which would let go of it, POSIX's way):
		// another process is still refused after the question.
		expect(folderHolder(dir)).toBe(process.pid)
		const other = Bun.spawnSync([
			process.execPath,
			'-e',
			`const { lockFolder } = await import(${JSON.stringify(join(import.meta.dir, '..', '..', 'src', 'runtime', 'telegram', 'binlog-lock.ts'))}); console.log(await lockFolder(${JSON.stringify(dir)}, 1).then(() => 'locked', (e) => e.message))`,
		])
		expect(other.stdout.toString().trim()).toBe(heldByAnotherProcess(join(dir, BINLOG)))
		second.release()
	})

	it('taken by real TDLib is seen, and refuses the emulator', async () => {
		const dir = folder()
		const client = td.createClient({ databaseDirectory: dir, filesDirectory: dir, encryptionKey: '' })
		await waitPhone((l) => client.onUpdate(l))
		expect(folderHolder(dir)).toBe(td.pid)
		expect(await lockFolder(dir, 2).catch((err: unknown) => err)).toMatchObject({
			code: 400,
			message: heldByAnotherProcess(join(dir, BINLOG)),
		})
		await client.close()
		expect(folderHolder(dir)).toBeNull()
	})

	it("taken as the emulator takes it, refuses real TDLib's parameters with the same words", async () => {
		const dir = folder()
		const other = await lockHolder(dir)
		try {
			const client = td.createClient({ databaseDirectory: dir, filesDirectory: dir, encryptionKey: '' })
			const states: string[] = []
			client.onUpdate((u) => {
				if (u._ === 'updateAuthorizationState') states.push(u.authorization_state._)
			})
			// TDLib tries for 10 s (100 times, 100 ms apart), then refuses its parameters...
			const refused = await (client.opened as Promise<void>).catch((err: unknown) => err)
			expect(refused).toBeInstanceOf(TdError)
			expect(refused).toMatchObject({ code: 400, message: heldByAnotherProcess(join(dir, BINLOG)) })
			// ...and goes on waiting for them, its folder untouched.
			expect(states).toEqual(['authorizationStateWaitTdlibParameters'])
			await client.close()
			expect(states.at(-1)).toBe('authorizationStateClosed')
		} finally {
			other.kill('SIGKILL')
			await other.exited
		}
	}, 30_000)
})
