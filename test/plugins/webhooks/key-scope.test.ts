import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { getTestInstance, type TestInstance } from '../../helpers'
import { registerUser, type TestUser } from '../../helpers-ws'
import {
	call,
	deleteUserbotRow,
	HOOK_ENV,
	insertUserbot,
	publish,
	type Receiver,
	startReceiver,
	texts,
} from './receiver'

/**
 * The High finding of issue 43, attack by attack: an API key kept to userbot A, with `webhooks`,
 * reached userbot B's events through the webhook routes (an endpoint made for B, its own endpoint
 * widened to B, B's stored events replayed, the owner's all-userbots endpoint read and its secret
 * rotated). Each is refused now (docs/policy.md): an endpoint is the caller's only when every
 * userbot it names is.
 */
let t: TestInstance
let owner: TestUser
let stranger: TestUser
let rx: Receiver
let a: number
let b: number
let c: number
let key: string
let paths = 0

const asOwner = (method: string, path: string, body?: unknown) => call(t, owner.access)(method, path, body)
const asKey = (method: string, path: string, body?: unknown) => call(t, key)(method, path, body)
const hookUrl = () => `${rx.url}/${++paths}`
const NOT_THE_COMPANYS = { userbot_ids: ['Each item must be a userbot of the company.'] }

beforeAll(async () => {
	t = await getTestInstance(HOOK_ENV)
	owner = await registerUser(t, 'scope-owner@example.com')
	stranger = await registerUser(t, 'scope-stranger@example.com')
	a = await insertUserbot(t, owner.companyId)
	b = await insertUserbot(t, owner.companyId)
	c = await insertUserbot(t, stranger.companyId)
	const made = await asOwner('POST', '/api/keys/', { name: 'a-only', userbot_ids: [a], webhooks: true })
	expect(made.status).toBe(201)
	key = ((await made.json()) as { key: string }).key
	rx = startReceiver()
})
afterAll(async () => {
	rx.stop()
	await t.stop()
})

/** An endpoint the owner makes (all the company's userbots when `userbot_ids` is left out). */
const ownerEndpoint = async (body: Record<string, unknown> = {}) => {
	const res = await asOwner('POST', '/api/webhooks/', { url: hookUrl(), ...body })
	expect(res.status).toBe(201)
	const made = (await res.json()) as { id: number; url: string }
	return { ...made, path: new URL(made.url).pathname }
}
const got = (path: string) => rx.received.filter((r) => r.path === path)

describe('a key kept to userbot A, with webhooks', () => {
	it('makes no endpoint of userbot B, nor of all userbots; one made without userbot_ids is of A', async () => {
		const forB = await asKey('POST', '/api/webhooks/', { url: hookUrl(), userbot_ids: [b] })
		expect(forB.status).toBe(400)
		expect(await forB.json()).toEqual(NOT_THE_COMPANYS)
		// Exactly what a userbot of another company gets.
		const forC = await asKey('POST', '/api/webhooks/', { url: hookUrl(), userbot_ids: [c] })
		expect(await forC.json()).toEqual(NOT_THE_COMPANYS)
		const forAB = await asKey('POST', '/api/webhooks/', { url: hookUrl(), userbot_ids: [a, b] })
		expect(forAB.status).toBe(400)
		const forAll = await asKey('POST', '/api/webhooks/', { url: hookUrl(), userbot_ids: null })
		expect(forAll.status).toBe(403)
		expect(await forAll.json()).toMatchObject({ code: 'key_scope' })
		const unnamed = await asKey('POST', '/api/webhooks/', { url: hookUrl() })
		expect(unnamed.status).toBe(201)
		expect(await unnamed.json()).toMatchObject({ userbot_ids: [a] })
	})

	it('makes one without userbot_ids of the userbots of its list still there, not of one deleted since', async () => {
		const gone = await insertUserbot(t, owner.companyId)
		const made = await asOwner('POST', '/api/keys/', {
			name: 'a-and-gone',
			userbot_ids: [a, gone],
			webhooks: true,
		})
		const { key: both } = (await made.json()) as { key: string }
		await deleteUserbotRow(t, gone)
		t.ctx.userbots.invalidate(gone)
		const res = await call(t, both)('POST', '/api/webhooks/', { url: hookUrl() })
		expect(res.status).toBe(201)
		expect(await res.json()).toMatchObject({ userbot_ids: [a] })
	})

	it("gets none of B's events on the endpoint it made", async () => {
		const res = await asKey('POST', '/api/webhooks/', { url: hookUrl() })
		const mine = (await res.json()) as { id: number; url: string }
		const all = await ownerEndpoint()
		publish(t, b, 'of b')
		publish(t, a, 'of a')
		// Both were recorded once the owner's endpoint, which takes every userbot, has both.
		await rx.until(() => texts(got(all.path)).length === 2)
		await rx.until(() => texts(got(new URL(mine.url).pathname)).includes('of a'))
		expect(texts(got(new URL(mine.url).pathname), b)).toEqual([])
		const listed = (await (await asOwner('GET', `/api/webhooks/${mine.id}/deliveries/`)).json()) as Array<{
			userbot_id: number
		}>
		expect(listed.map((d) => d.userbot_id)).toEqual([a])
	})

	it('cannot widen its own endpoint to B or to all userbots', async () => {
		const res = await asKey('POST', '/api/webhooks/', { url: hookUrl() })
		const { id } = (await res.json()) as { id: number }
		const widened = await asKey('PATCH', `/api/webhooks/${id}/`, { userbot_ids: [a, b] })
		expect(widened.status).toBe(400)
		expect(await widened.json()).toEqual(NOT_THE_COMPANYS)
		expect((await asKey('PATCH', `/api/webhooks/${id}/`, { userbot_ids: null })).status).toBe(403)
		const view = (await (await asOwner('GET', `/api/webhooks/${id}/`)).json()) as { userbot_ids: number[] }
		expect(view.userbot_ids).toEqual([a])
		expect((await asKey('PATCH', `/api/webhooks/${id}/`, { description: 'still a' })).status).toBe(200)
	})

	it("does not see, read, change, rotate, test, replay or delete the owner's all-userbots endpoint", async () => {
		const all = await ownerEndpoint()
		const listed = (await (await asKey('GET', '/api/webhooks/')).json()) as Array<{ id: number }>
		expect(listed.map((e) => e.id)).not.toContain(all.id)
		const tries: Array<[string, string, unknown?]> = [
			['GET', `/api/webhooks/${all.id}/`],
			['PATCH', `/api/webhooks/${all.id}/`, { description: 'mine now' }],
			['POST', `/api/webhooks/${all.id}/rotate-secret/`],
			['POST', `/api/webhooks/${all.id}/test/`],
			['GET', `/api/webhooks/${all.id}/deliveries/`],
			['POST', `/api/webhooks/${all.id}/replay/`, {}],
			['DELETE', `/api/webhooks/${all.id}/`],
		]
		for (const [method, path, body] of tries) {
			const res = await asKey(method, path, body)
			expect(`${method} ${path} ${res.status}`).toBe(`${method} ${path} 404`)
			expect(await res.json()).toEqual({ detail: 'Not found.' })
		}
		// The owner's endpoint is as it was.
		expect((await asOwner('GET', `/api/webhooks/${all.id}/`)).status).toBe(200)
	})

	it("replays none of B's stored events, nor lists their deliveries, on an endpoint that once had B", async () => {
		const both = await ownerEndpoint({ userbot_ids: [a, b] })
		publish(t, a, 'a once')
		publish(t, b, 'b once')
		await rx.until(() => texts(got(both.path)).length === 2)
		// The owner narrows it to A: the key reaches it now, but B's events stay stored in it.
		expect((await asOwner('PATCH', `/api/webhooks/${both.id}/`, { userbot_ids: [a] })).status).toBe(200)
		const forB = await asKey('POST', `/api/webhooks/${both.id}/replay/`, { userbot_id: b })
		expect(forB.status).toBe(400)
		expect(await forB.json()).toEqual({ userbot_id: ['A valid userbot id is required.'] })
		const replayed = await asKey('POST', `/api/webhooks/${both.id}/replay/`, {})
		expect(replayed.status).toBe(202)
		expect(await replayed.json()).toEqual({ replayed: 1, truncated: false })
		const deliveries = (await (await asKey('GET', `/api/webhooks/${both.id}/deliveries/`)).json()) as Array<{
			userbot_id: number
		}>
		expect(new Set(deliveries.map((d) => d.userbot_id))).toEqual(new Set([a]))
		// The owner, who reaches B, still replays B's.
		const byOwner = await asOwner('POST', `/api/webhooks/${both.id}/replay/`, { userbot_id: b })
		expect(await byOwner.json()).toEqual({ replayed: 1, truncated: false })
	})

	it('replays no event of a userbot of another company, for the owner neither', async () => {
		const mine = await ownerEndpoint({ userbot_ids: [a] })
		const res = await asOwner('POST', `/api/webhooks/${mine.id}/replay/`, { userbot_id: c })
		expect(res.status).toBe(400)
	})
})

describe('a key without webhooks', () => {
	it('is refused the webhook routes (403 key_scope)', async () => {
		const made = await asOwner('POST', '/api/keys/', { name: 'no-hooks', userbot_ids: [a] })
		const { key: plain } = (await made.json()) as { key: string }
		const res = await call(t, plain)('GET', '/api/webhooks/')
		expect(res.status).toBe(403)
		expect(await res.json()).toMatchObject({ code: 'key_scope' })
	})
})
