import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { builtInPlugins } from 'userbot-gateway'
import { ClientError, createClient } from 'userbot-gateway/client'
import { defineCommand, definePlugin } from 'userbot-gateway/plugin'
import { startTestServer, type TestServer, type TestUser } from 'userbot-gateway/testing'
import * as v from 'valibot'

/**
 * The typed client and a server that stops (what SIGTERM starts): the command it had running is
 * answered, the connection closes with 1001 (`onClose` says so), and what it sent meanwhile rejects
 * with `connection_closed`: the server ran none of it, so it may be sent again elsewhere.
 */
let server: TestServer
let user: TestUser
let bob: number
let release: () => void = () => {}
const gate = new Promise<void>((resolve) => {
	release = resolve
})
let runs = 0
const heldPlugin = definePlugin({
	id: 'test-held',
	commands: [
		defineCommand({
			name: 'test_held',
			policy: { action: 'write' },
			methods: [],
			input: v.looseObject({}),
			requiresAuthorization: false,
			run: async () => {
				runs++
				await gate
				return { released: true }
			},
		}),
	],
})

beforeAll(async () => {
	server = await startTestServer({ plugins: [...builtInPlugins, heldPlugin] })
	user = await server.registerUser()
	bob = await server.createUserbot(user)
})
afterAll(() => server?.stop())

describe('createClient and a server that stops', () => {
	it('gets its running command answered, then 1001; what it sent meanwhile rejects with connection_closed', async () => {
		let closed: (close: [number, string]) => void = () => {}
		const close = new Promise<[number, string]>((resolve) => {
			closed = resolve
		})
		const client = createClient({ url: server.url, token: user.access, onClose: (c, r) => closed([c, r]) })
		try {
			const running = client.request({ action: 'test_held', userbot_id: bob })
			// Answered after the held one was taken: it is running.
			expect(await client.request({ action: 'no_such_action', userbot_id: bob })).toMatchObject({
				error: 'unknown action',
			})
			expect(runs).toBe(1)
			const gone = server.app.goAway()
			const late = client.request({ action: 'test_held', userbot_id: bob }).catch((e: unknown) => e)
			release()
			expect(await running).toMatchObject({ type: 'test_held', result: { released: true } })
			expect(await close).toEqual([1001, 'server shutting down'])
			const refused = await late
			expect(refused).toBeInstanceOf(ClientError)
			expect((refused as ClientError).reason).toBe('connection_closed')
			await gone
			expect(runs).toBe(1)
		} finally {
			client.close()
		}
	})
})
