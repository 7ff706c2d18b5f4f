import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { getTestInstance, type TestInstance } from '../../helpers'
import { registerUser, type TestUser } from '../../helpers-ws'
import { call } from './receiver'

/**
 * The webhook routes' bodies, validated by the schema each route is defined with (plugins/webhooks/
 * bodies.ts): each field's first problem in our words, never the value; the owner and the endpoint
 * checked before the body is read.
 */
describe("webhook bodies, validated by their routes' schemas", () => {
	let t: TestInstance
	let owner: TestUser
	let id: number
	const SECRET = 'quoted-9191'
	beforeAll(async () => {
		t = await getTestInstance({ WEBHOOK_ALLOW_HTTP: 'true' })
		owner = await registerUser(t, 'bodies-owner@example.com')
		const made = await call(t, owner.access)('POST', '/api/webhooks/', { url: 'https://93.184.216.34/hook' })
		expect(made.status).toBe(201)
		id = ((await made.json()) as { id: number }).id
	})
	afterAll(() => t.stop())

	it('answers a new endpoint whose fields are wrong with one message per field', async () => {
		const res = await call(t, owner.access)('POST', '/api/webhooks/', {
			url: null,
			events: [SECRET],
			userbot_ids: [0],
			description: 7,
		})
		expect(res.status).toBe(400)
		const text = await res.text()
		expect(JSON.parse(text)).toEqual({
			url: ['This field is required.'],
			events: ['Each item must be an update kind of TDLib or an event type of the gateway.'],
			userbot_ids: ['Each item must be a userbot id.'],
			description: ['Not a valid string.'],
		})
		expect(text).not.toContain(SECRET)
		const empty = await call(t, owner.access)('POST', '/api/webhooks/', {
			url: 'x',
			events: [],
			userbot_ids: 5,
		})
		expect(await empty.json()).toEqual({
			events: ['Name at least one event type.'],
			userbot_ids: ['Expected a list of userbot ids, or null.'],
		})
	})

	it('takes a change of any field, checks `enabled`, and finds the endpoint before the body', async () => {
		const as = call(t, owner.access)
		expect(await (await as('PATCH', `/api/webhooks/${id}/`, { enabled: 'yes', url: null })).json()).toEqual({
			enabled: ['Must be a valid boolean.'],
		})
		const changed = await as('PATCH', `/api/webhooks/${id}/`, { description: 'hooks', events: null })
		expect(changed.status).toBe(200)
		expect(await changed.json()).toMatchObject({ id, description: 'hooks' })
		const missing = await fetch(`${t.url}/api/webhooks/${id + 1000}/`, {
			method: 'PATCH',
			headers: { authorization: `Bearer ${owner.access}`, 'content-type': 'application/json' },
			body: '{broken',
		})
		expect(missing.status).toBe(404)
		const stranger = await fetch(`${t.url}/api/webhooks/`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: '{broken',
		})
		expect(stranger.status).toBe(401)
	})

	it('checks what a replay names', async () => {
		const res = await call(t, owner.access)('POST', `/api/webhooks/${id}/replay/`, {
			after_seq: -1,
			userbot_id: 0,
			since: `${SECRET}x`,
		})
		expect(res.status).toBe(400)
		const text = await res.text()
		expect(JSON.parse(text)).toEqual({
			after_seq: ['A valid non-negative integer is required.'],
			userbot_id: ['A valid userbot id is required.'],
			since: ['Datetime has wrong format. Use ISO 8601.'],
		})
		expect(text).not.toContain(SECRET)
		const all = await call(t, owner.access)('POST', `/api/webhooks/${id}/replay/`, { since: null })
		expect(await all.json()).toEqual({ replayed: 0, truncated: false })
	})
})
