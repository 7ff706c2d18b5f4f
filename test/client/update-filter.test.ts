import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { createClient, type UpdateFilter } from 'userbot-gateway/client'
import { startTestServer, type TestServer, type TestUser } from 'userbot-gateway/testing'
import { createSubscriptions, subscribeFrame } from '../../packages/client/src/ws/subscriptions'
import type { EventFilterInput } from '../../src/server/updates/filter'

/** Issue 46 in the typed client: `updates(id, {filter})` sends the filter, and again on every resubscription. */
const LOUNGE = -1000000003001

// One shape on both sides: the server's checked filter is the client's, and back (media as strings).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const same: Same<
	Required<UpdateFilter>,
	Omit<Required<EventFilterInput>, 'media'> & { media: string[] }
> = true

let server: TestServer
let user: TestUser
let bob: number
beforeAll(async () => {
	server = await startTestServer()
	user = await server.registerUser()
	bob = await server.createUserbot(user)
})
afterAll(() => server?.stop())

describe('the client and filters', () => {
	it('keeps the filter in the frame it subscribes again with', () => {
		expect(same).toBe(true)
		const subs = createSubscriptions()
		const sub = subs.add(7, { kinds: ['updateNewMessage'], filter: { contains: ['hi'] } })
		sub.lastSeq = 41
		expect(subscribeFrame(sub)).toEqual({
			action: 'subscribe',
			userbot_id: 7,
			updates: ['updateNewMessage'],
			filter: { contains: ['hi'] },
			after: 41,
		})
	})

	it('gets only what the filter passes', async () => {
		const client = createClient({ url: server.url, token: user.access })
		try {
			const updates = client.updates(bob, { kinds: ['updateNewMessage'], filter: { contains: ['wanted'] } })
			await updates.ready
			for (const text of ['not this', 'nor this', 'the wanted one'])
				await client.send('send_message', { userbot_id: bob, chat_id: LOUNGE, text })
			const got = await updates.next()
			const message = (got.value as { update: { message: { content: { text: { text: string } } } } }).update
			expect(message.message.content.text.text).toBe('the wanted one')
			await updates.close()
		} finally {
			client.close()
		}
	})
})
