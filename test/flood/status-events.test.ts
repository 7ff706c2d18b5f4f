import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { userbot } from '../../db/schema'
import { StatusTracker } from '../../plugins/userbots/lifecycle/status-tracker'
import { ManualClock } from '../../src/runtime/flood/clock'
import { HealthBoard, type StatusChange, type UserbotStatus } from '../../src/runtime/flood/health'
import type { CompanyEvent } from '../../src/server/context'
import type { ObservedEvent } from '../../src/server/updates/hub'
import { createMessagingFixture, type MessagingFixture } from '../helpers-ws'

/**
 * Status events are told only when something changed, beside the numbered update stream: the
 * health board tells each change once, and the tracker of the gateway tells a runtime's first status
 * of an account only when the stored one differs.
 */
describe('the health board tells changes only', () => {
	it('tells each change once; the first it learns of an account is marked initial', () => {
		const clock = new ManualClock()
		const told: Array<[number, StatusChange]> = []
		const board = new HealthBoard(clock, (id, change) => told.push([id, change]))
		board.set(1, 'active')
		board.set(1, 'active')
		board.set(1, 'limited')
		board.set(1, 'limited')
		board.set(2, 'active')
		expect(told).toEqual([
			[1, { status: 'active', initial: true }],
			[1, { status: 'limited' }],
			[2, { status: 'active', initial: true }],
		])
	})
})

describe('the status tracker', () => {
	let f: MessagingFixture
	const published: CompanyEvent[] = []
	const observed: ObservedEvent[] = []
	let tracker: StatusTracker
	beforeAll(async () => {
		f = await createMessagingFixture()
		const ctx = f.t.ctx
		tracker = new StatusTracker({ ...ctx, publish: (e) => published.push(e) })
		ctx.updates.observe((e) => {
			if (e.kind === 'userbot.status') observed.push(e)
		})
	})
	afterAll(() => f.stop())

	const stored = async () =>
		(await f.t.ctx.db.select({ status: userbot.status }).from(userbot).where(eq(userbot.id, f.userbotId)))[0]
			?.status
	const store = (status: UserbotStatus) =>
		f.t.ctx.db.update(userbot).set({ status }).where(eq(userbot.id, f.userbotId))
	const handle = async (status: UserbotStatus, initial?: boolean) => {
		tracker.handle({
			type: 'userbot_status',
			userbotId: f.userbotId,
			status,
			...(initial ? { initial } : {}),
		})
		await tracker.drain()
	}

	it('a first status equal to the stored one tells nothing', async () => {
		await store('active')
		await handle('active', true)
		expect(published).toEqual([])
		expect(observed).toEqual([])
	})

	it('a first status that differs from the stored one sets it right and tells it', async () => {
		// Stored before the process stopped, while a child was being restarted.
		await store('restarting')
		await handle('active', true)
		expect(await stored()).toBe('active')
		expect(published).toEqual([
			{
				companyId: f.alice.companyId,
				userbotId: f.userbotId,
				message: {
					type: 'chat_update',
					userbot_id: f.userbotId,
					payload: { userbot_id: f.userbotId, type: 'userbot_status', result: { status: 'active' } },
				},
			},
		])
		expect(observed.map((e) => [e.userbotId, e.data, e.live])).toEqual([
			[f.userbotId, { status: 'active' }, false],
		])
	})

	it('a change the runtime saw is stored and told, and numbers no update', async () => {
		const kept = f.t.ctx.updates.kept(f.userbotId)
		await handle('limited')
		expect(await stored()).toBe('limited')
		expect(published.at(-1)?.message).toMatchObject({ payload: { result: { status: 'limited' } } })
		expect(observed.at(-1)?.data).toEqual({ status: 'limited' })
		expect(f.t.ctx.updates.kept(f.userbotId)).toBe(kept)
		expect(tracker.current(f.userbotId)).toEqual({ status: 'limited' })
	})
})
