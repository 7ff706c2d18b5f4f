import { afterAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { holdClientsLock, tryExclusiveClientsLock } from '../../src/runtime/telegram/clients-lock'

describe('the clients lock of DATA_DIR/tdlib', () => {
	const dir = join(mkdtempSync(join(tmpdir(), 'ubg-clients-lock-')), 'tdlib')
	afterAll(() => rmSync(join(dir, '..'), { recursive: true, force: true }))

	it('lets processes that run clients hold it together, and a backup only once they are gone', () => {
		const a = holdClientsLock(dir, 0)
		const b = holdClientsLock(dir, 0)
		expect(tryExclusiveClientsLock(dir)).toBeUndefined()
		a.release()
		expect(tryExclusiveClientsLock(dir)).toBeUndefined()
		b.release()
		const backup = tryExclusiveClientsLock(dir)
		expect(backup).toBeDefined()
		// While the backup copies, a child that starts cannot run clients.
		expect(() => holdClientsLock(dir, 0)).toThrow(/a backup has held .*\.clients\.lock/)
		backup?.release()
		holdClientsLock(dir, 0).release()
	})
})
