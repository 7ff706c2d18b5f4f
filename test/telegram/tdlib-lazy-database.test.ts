import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generateDatabaseKey } from '../../src/common/util/key-crypto'
import type { BackendClient, TdUpdate } from '../../src/runtime/telegram/types'
import { startTdlibChild, type TdlibChild } from './tdlib-child'

// Real TDLib, offline (networkTypeNone first), in a child process: docs/capacity.md#start-time.
let backend: TdlibChild
const root = mkdtempSync(join(tmpdir(), 'ubg-td-lazy-'))
beforeAll(async () => {
	backend = await startTdlibChild()
})
afterAll(async () => {
	await backend.stop()
	rmSync(root, { recursive: true, force: true })
})

function folders(name: string) {
	const databaseDirectory = join(root, name, 'db')
	const filesDirectory = join(root, name, 'files')
	mkdirSync(databaseDirectory, { recursive: true })
	mkdirSync(filesDirectory, { recursive: true })
	return { databaseDirectory, filesDirectory }
}

/** Starts a client and waits until it asks for a phone number. */
async function waitingForPhone(dirs: ReturnType<typeof folders>, key: string): Promise<BackendClient> {
	const client = backend.createClient({ ...dirs, encryptionKey: key })
	await new Promise<void>((resolve) => {
		client.onUpdate((u: TdUpdate) => {
			if (
				u._ === 'updateAuthorizationState' &&
				u.authorization_state._ === 'authorizationStateWaitPhoneNumber'
			)
				resolve()
		})
	})
	await client.network
	return client
}

describe('real TDLib: the SQLite database of a client that has not logged in', () => {
	it('is not made for a new client, which keeps only its binlog', async () => {
		const dirs = folders('new')
		const key = generateDatabaseKey()
		const client = await waitingForPhone(dirs, key)
		expect(await client.invoke({ _: 'getAuthorizationState' })).toEqual({
			_: 'authorizationStateWaitPhoneNumber',
		})
		expect(readdirSync(dirs.databaseDirectory)).toEqual(['td.binlog'])
		await client.close()
		// Started again from its folder: still waiting, still no database.
		const again = await waitingForPhone(dirs, key)
		expect(readdirSync(dirs.databaseDirectory)).toEqual(['td.binlog'])
		await again.close()
	})

	it('left by an earlier version is gone once the client closes, and not made again', async () => {
		const dirs = folders('earlier')
		const key = generateDatabaseKey()
		// What an earlier version left: a database TDLib deletes and makes again while not logged in.
		writeFileSync(join(dirs.databaseDirectory, 'db.sqlite'), '')
		const first = await waitingForPhone(dirs, key)
		expect(existsSync(join(dirs.databaseDirectory, 'db.sqlite'))).toBe(true)
		await first.close()
		expect(readdirSync(dirs.databaseDirectory)).toEqual(['td.binlog'])
		const second = await waitingForPhone(dirs, key)
		expect(readdirSync(dirs.databaseDirectory)).toEqual(['td.binlog'])
		await second.close()
	})
})
