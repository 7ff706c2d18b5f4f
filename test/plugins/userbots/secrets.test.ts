import { describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { userbot } from '../../../db/schema'
import { openDatabaseKey } from '../../../src/common/util/key-crypto'
import { openSocket, removeDir, SECOND_FACTOR, serve, signUp, tempDir } from './support'

describe('userbot secrets', () => {
	it('never reach the log: database key, code, password', async () => {
		const dataDir = tempDir()
		const lines: string[] = []
		let server = await serve(dataDir, {}, lines)
		try {
			const owner = await signUp(server.url)
			const ws = await openSocket(server.url, owner.access)
			const { id } = (await (await owner.call('POST', '/api/userbots/', {})).json()) as { id: number }
			await ws.command('userbot_submit_phone', id, { phone_number: SECOND_FACTOR.phone })
			await ws.command('userbot_submit_code', id, { code: SECOND_FACTOR.code })
			await ws.command('userbot_submit_password', id, { password: 'wrong-one-9' })
			await owner.call('POST', `/api/userbots/${id}/password/`, { password: SECOND_FACTOR.password })
			ws.close()
			const [row] = await server.ctx.db.select().from(userbot).where(eq(userbot.id, id))
			const key = await openDatabaseKey(server.config.secrets.dataKey, id, row?.encryptionKey ?? '')
			// A restart opens the key again: still nothing in the log.
			await server.halt()
			server = await serve(dataDir, {}, lines)
			expect(lines.length).toBeGreaterThan(0)
			const log = lines.join('\n')
			for (const secret of [key, SECOND_FACTOR.code, SECOND_FACTOR.password, 'wrong-one-9']) {
				expect(log).not.toContain(secret)
			}
		} finally {
			await server.halt()
			removeDir(dataDir)
		}
	})
})
