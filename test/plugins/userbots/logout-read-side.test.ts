import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { fileCache } from '../../../plugins/userbots/tables'
import { SEED_CHATS } from '../../../src/emulator'
import { connectWs } from '../../helpers-ws'
import { createUserbot, type FreshServer, logInOverRest, type Member, serveFresh, signUp } from './support'

/**
 * A userbot logged out over REST and logged in again as another Telegram account keeps its id: what
 * this process kept of the old account must not reach the new one. Over the real server on the
 * emulator: Bob (9996621234) first, then Alice (9996611111).
 */
const BOB = { phone: '9996621234', code: '22222' }
const ALICE = { phone: '9996611111', code: '11111' }

let server: FreshServer
let owner: Member

beforeAll(async () => {
	server = await serveFresh()
	owner = await signUp(server.url)
})
afterAll(() => server.dispose())

interface Frame {
	type: string
	userbot_id?: number
	seq?: number
	update?: Record<string, unknown>
}

describe('logging a userbot out', () => {
	it("never lets the next account resume the old account's updates or count its cached files", async () => {
		const id = await createUserbot(owner)
		await logInOverRest(owner, id, BOB)
		const ws = await connectWs(server.url, { bearer: owner.access })
		// Bob's account says something: the hub keeps it (and what TDLib told of it) for a client that resumes.
		const sent = await ws.command({
			action: 'send_message',
			userbot_id: id,
			chat_id: SEED_CHATS.supergroup,
			text: "Bob's own note",
		})
		expect(sent.payload.error).toBeUndefined()
		const before = await ws.command({ action: 'subscribe', userbot_id: id })
		const bobsLast = (before.payload.result as { last_seq: number }).last_seq
		expect(bobsLast).toBeGreaterThan(0)
		expect(server.ctx.updates.kept(id)).toBeGreaterThan(0)
		await server.ctx.db.insert(fileCache).values({ userbotId: id, fileId: 7, size: 10, usedAt: Date.now() })

		expect((await owner.call('POST', `/api/userbots/${id}/logout/`)).status).toBe(200)
		await logInOverRest(owner, id, ALICE)
		const view = (await (await owner.call('GET', `/api/userbots/${id}/`)).json()) as { phone_number: string }
		expect(view.phone_number).toBe(ALICE.phone)
		// The socket that followed Bob's account stays subscribed (nothing a live client sees changes).
		expect(ws.received.some((m) => (m as unknown as Frame).type === 'resync')).toBe(false)
		ws.close()

		// A client resuming from the very start hears that nothing before is kept, and no update of Bob's.
		const again = await connectWs(server.url, { bearer: owner.access })
		const reply = await again.command({ action: 'subscribe', userbot_id: id, after: 0 })
		expect(reply.payload.type).toBe('subscribe')
		// What a resume sends comes right after the reply: all of it has come by a later command's reply.
		await again.command({ action: 'get_me', userbot_id: id })
		const frames = (again.received as unknown as Frame[]).filter((m) => m.userbot_id === id)
		const resync = frames.find((m) => m.type === 'resync')
		expect(resync?.seq).toBeGreaterThan(bobsLast)
		const updates = frames.filter((m) => m.type === 'update')
		expect(updates.filter((u) => (u.seq ?? 0) <= bobsLast)).toEqual([])
		again.close()
		// The old account's files went with its folders: the download cache counts none of them.
		expect(await server.ctx.db.select().from(fileCache).where(eq(fileCache.userbotId, id))).toEqual([])
	})
})
