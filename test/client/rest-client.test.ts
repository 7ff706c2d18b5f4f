import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { createRestClient } from 'userbot-gateway/client'
import { startTestServer, type TestServer } from 'userbot-gateway/testing'

/** Eden over the real routes, typed by the documented contract. */
let server: TestServer
beforeAll(async () => {
	server = await startTestServer()
})
afterAll(() => server?.stop())

describe('createRestClient', () => {
	it('registers, takes a token and reads the profile, typed end to end', async () => {
		const rest = createRestClient(server.url)
		const email = 'eden@example.com'
		const password = 'Correct-Horse-42'
		const made = await rest.accounts.register.post({
			email,
			password,
			first_name: 'Eden',
			last_name: 'Client',
		})
		expect(made.status).toBe(201)
		expect(made.data?.email).toBe(email)
		const pair = await rest.accounts.token.post({ email, password })
		const access = pair.data?.access
		expect(typeof access).toBe('string')
		const authed = createRestClient(server.url, { token: () => access })
		const me = await authed.accounts.me.get()
		expect(me.data).toMatchObject({ email, first_name: 'Eden', is_owner: true })
		const bots = await authed.api.userbots.post({ name: 'eden' })
		expect(bots.status).toBe(201)
		const one = await authed.api.userbots({ id: String(bots.data?.id) }).get()
		expect(one.data).toMatchObject({ name: 'eden', phone_number: null })
	})

	it('gives the documented error bodies as `error`', async () => {
		const rest = createRestClient(server.url)
		const wrong = await rest.accounts.token.post({
			email: 'nobody@example.com',
			password: 'Wrong-Password-1',
		})
		expect(wrong.status).toBe(401)
		expect(wrong.error?.value).toMatchObject({ detail: 'No active account found with the given credentials' })
		const anonymous = await rest.accounts.me.get()
		expect(anonymous.error?.status).toBe(401)
	})
})
