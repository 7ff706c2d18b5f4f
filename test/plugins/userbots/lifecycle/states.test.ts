import { afterAll, describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { userbot } from '../../../../db/schema'
import { UserbotStates } from '../../../../plugins/userbots/lifecycle/states'
import type { AppContext } from '../../../../src/server/context'
import { createUserbot, serveFresh, signUp } from '../support'

const server = await serveFresh()
afterAll(() => server.dispose())

describe('the userbot state owner', () => {
	it('stores a state (and a just-logged-in number) before it pushes it', async () => {
		const owner = await signUp(server.url)
		const id = await createUserbot(owner)
		const read = async () => {
			const [row] = await server.ctx.db
				.select({ state: userbot.authorizationState, phone: userbot.phoneNumber })
				.from(userbot)
				.where(eq(userbot.id, id))
			return row
		}
		// What a client that reads the userbot on hearing the push would find.
		const seenAtPush: Array<Promise<unknown>> = []
		const runtime = {
			// getMe answers a little later, as a real round trip through the supervisor does.
			invoke: async () => {
				await Bun.sleep(20)
				return { _: 'user', phone_number: '99966 2 1234' }
			},
		} as unknown as AppContext['runtime']
		const tracker = new UserbotStates({
			db: server.ctx.db,
			log: server.ctx.log,
			runtime,
			publish: () => {
				seenAtPush.push(read())
			},
		})
		tracker.handle({ type: 'authorization_state', userbotId: id, state: 'authorizationStateWaitCode' })
		tracker.handle({ type: 'authorization_state', userbotId: id, state: 'authorizationStateReady' })
		await tracker.drain()
		expect(await Promise.all(seenAtPush)).toEqual([
			{ state: 'authorizationStateWaitCode', phone: null },
			{ state: 'authorizationStateReady', phone: '9996621234' },
		])
	})

	it('pushes no state of a userbot deleted while the state was being stored', async () => {
		const owner = await signUp(server.url)
		const id = await createUserbot(owner)
		const pushed: string[] = []
		const runtime = {
			// The delete lands while the account's number is asked for.
			invoke: async () => {
				tracker.markDeleted(id)
				return { _: 'user', phone_number: '9996621234' }
			},
		} as unknown as AppContext['runtime']
		const tracker: UserbotStates = new UserbotStates({
			db: server.ctx.db,
			log: server.ctx.log,
			runtime,
			publish: (e) => {
				const message = e.message as { payload: { result?: { authorization_state?: string } } }
				pushed.push(String(message.payload.result?.authorization_state))
			},
		})
		tracker.handle({ type: 'authorization_state', userbotId: id, state: 'authorizationStateWaitCode' })
		tracker.handle({ type: 'authorization_state', userbotId: id, state: 'authorizationStateReady' })
		await tracker.drain()
		expect(pushed).toEqual(['authorizationStateWaitCode'])
	})

	it("answers whether the running client is ready: its own word, else the runtime's while a start awaits the new client", async () => {
		let cached: string | undefined = 'authorizationStateWaitTdlibParameters'
		const runtime = { authorizationState: () => cached } as unknown as AppContext['runtime']
		const tracker = new UserbotStates({ db: server.ctx.db, log: server.ctx.log, runtime, publish: () => {} })
		// Nothing heard yet: the runtime's view.
		expect(tracker.authorizationState(7)).toBe('authorizationStateWaitTdlibParameters')
		tracker.handle({ type: 'authorization_state', userbotId: 7, state: 'authorizationStateReady' })
		cached = 'authorizationStateWaitPhoneNumber'
		// Heard here: the owner's word, whatever the runtime's cache says.
		expect(tracker.authorizationState(7)).toBe('authorizationStateReady')
		// A restart: until the new client says something, what was heard is the old client's.
		let started = (_state: string) => {}
		const start = tracker.start(7, () => new Promise<string>((resolve) => (started = resolve)))
		cached = undefined
		expect(tracker.authorizationState(7)).toBeUndefined()
		tracker.handle({ type: 'authorization_state', userbotId: 7, state: 'authorizationStateWaitPhoneNumber' })
		expect(tracker.authorizationState(7)).toBe('authorizationStateWaitPhoneNumber')
		started('authorizationStateWaitPhoneNumber')
		await start
		await tracker.drain()
	})
})
