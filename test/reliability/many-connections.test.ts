import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { userProfile } from '../../db/schema'
import { createMessagingFixture, type MessagingFixture, registerUser } from '../helpers-ws'
import { runManyConnections } from './many-connections'
import { runtimeCounts } from './runtime-counts'

/**
 * Issue 13, load: 1,000 authenticated WebSockets of four users held open at once on this 2-core
 * machine, each sending five commands (one of each group) in turn. Every command is answered once
 * and none fails; the gateway counts 1,000 sockets while they are open and none after. The timing
 * figures (p99, RSS) are test/bench/reliability.ts's.
 */
const SOCKETS = 1000

let f: MessagingFixture
const tokens: string[] = []

beforeAll(async () => {
	f = await createMessagingFixture()
	tokens.push(f.alice.access)
	// Three more users of alice's company: invited, so they see her userbot.
	for (let i = 0; i < 3; i++) {
		const user = await registerUser(f.t, `many-${i}@example.com`)
		await f.t.ctx.db
			.update(userProfile)
			.set({ companyId: f.alice.companyId, isOwner: false })
			.where(eq(userProfile.id, user.userId))
		const tok = await fetch(`${f.t.url}/accounts/token/`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ email: user.email, password: user.password }),
		})
		tokens.push(((await tok.json()) as { access: string }).access)
	}
})
afterAll(() => f.stop())

describe('a thousand connections at once', () => {
	it('are held open and get every command answered once, without an error', async () => {
		let openSockets = 0
		const result = await runManyConnections({
			url: f.t.url,
			tokens,
			userbotId: f.userbotId,
			sockets: SOCKETS,
			perSocket: 5,
			whenOpen: () => {
				openSockets = f.t.socketStats().sockets
			},
		})
		expect(result.opened).toBe(SOCKETS)
		expect(openSockets).toBe(SOCKETS)
		expect(result.sent).toBe(SOCKETS * 5)
		expect(result.answered).toBe(result.sent)
		expect(result.lost).toBe(0)
		expect(result.duplicates).toBe(0)
		expect([...result.errors]).toEqual([])
		for (let i = 0; i < 100 && f.t.socketStats().sockets > 0; i++) await Bun.sleep(20)
		expect(f.t.socketStats().sockets).toBe(0)
		expect(runtimeCounts(f.t).pendingRequests).toBe(0)
		expect(runtimeCounts(f.t).restarts).toBe(0)
	}, 60_000)
})
