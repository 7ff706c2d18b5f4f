import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { builtInPlugins } from 'userbot-gateway'
import {
	backoffDelay,
	ClientError,
	CommandFailed,
	createClient,
	createRestClient,
} from 'userbot-gateway/client'
import { defineCommand, definePlugin } from 'userbot-gateway/plugin'
import { startTestServer, type TestServer, type TestUser } from 'userbot-gateway/testing'
import * as v from 'valibot'

/** The typed WebSocket client against a real server on the emulator (Bob's account, 1002). */
let server: TestServer
let user: TestUser
let bob: number
const LOUNGE = -1000000003001

/** `test_hold` answers once the test lets it: a reply that comes late, with no timer to race. */
let releaseHeld: () => void = () => {}
let held: Promise<void> = Promise.resolve()
const holdPlugin = definePlugin({
	id: 'test-hold',
	commands: [
		defineCommand({
			name: 'test_hold',
			policy: { action: 'write' },
			methods: [],
			input: v.looseObject({}),
			requiresAuthorization: false,
			run: async () => {
				await held
				return { released: true }
			},
		}),
	],
})

beforeAll(async () => {
	server = await startTestServer({ plugins: [...builtInPlugins, holdPlugin] })
	user = await server.registerUser()
	bob = await server.createUserbot(user)
})
afterAll(() => server?.stop())

describe('createClient', () => {
	it("sends commands typed by the registry and resolves with each one's own result", async () => {
		const client = createClient({ url: server.url, token: user.access })
		try {
			// Concurrent commands: each reply is matched to its request by request_id.
			const [ttl, auto, members] = await Promise.all([
				client.send('get_account_ttl', { userbot_id: bob }),
				client.send('set_chat_message_auto_delete_time', {
					userbot_id: bob,
					chat_id: LOUNGE,
					message_auto_delete_time: 0,
				}),
				client.send('get_chat_members', { userbot_id: bob, chat_id: LOUNGE, limit: 2 }),
			])
			expect(ttl).toEqual({ _: 'accountTtl', days: 180 })
			expect(auto).toEqual({ chat_id: LOUNGE, message_auto_delete_time: 0 })
			expect(members._).toBe('chatMembers')
			expect(members.members).toHaveLength(2)
		} finally {
			client.close()
		}
	})

	it('rejects with CommandFailed carrying the wire string and any partial result', async () => {
		const client = createClient({ url: server.url, token: user.access })
		try {
			const failed = await client
				.send('pin_message', { userbot_id: bob, chat_id: LOUNGE } as never)
				.catch((e: unknown) => e)
			expect(failed).toBeInstanceOf(CommandFailed)
			expect(failed).toMatchObject({ action: 'pin_message', error: 'message_id is required' })
			const other = await client
				.send('no_such_command' as never, { userbot_id: 999_999, chat_id: 1 } as never)
				.catch((e: unknown) => e)
			expect(other).toMatchObject({ error: 'unknown action' })
			const foreign = await client.send('get_account_ttl', { userbot_id: 999_999 }).catch((e: unknown) => e)
			expect(foreign).toMatchObject({ error: 'userbot not found' })
		} finally {
			client.close()
		}
	})

	it('gives up on a reply after its own deadline, and keeps the connection', async () => {
		const client = createClient({ url: server.url, token: user.access, timeoutMs: 5_000 })
		try {
			// The server holds the reply until the deadline has passed: no timer races another.
			held = new Promise((resolve) => {
				releaseHeld = resolve
			})
			const slow = client.request({ action: 'test_hold', userbot_id: bob }, { timeoutMs: 20 })
			const err = await slow.catch((e: unknown) => e)
			expect(err).toBeInstanceOf(ClientError)
			expect((err as ClientError).reason).toBe('timeout')
			// The late reply arrives on a connection that is still open, and is dropped: the next
			// command's reply is its own.
			releaseHeld()
			expect(await client.send('get_account_ttl', { userbot_id: bob })).toMatchObject({ days: 180 })
			expect(client.connected).toBe(true)
		} finally {
			client.close()
		}
	})

	it('renews its credential in band and comes back after the server closes it, with a fresh token', async () => {
		const rest = createRestClient(server.url)
		let tokens = 0
		const fresh = async () => {
			tokens++
			const pair = await rest.accounts.token.post({ email: user.email, password: user.password })
			return String(pair.data?.access)
		}
		const first = await rest.accounts.token.post({ email: user.email, password: user.password })
		const current = String(first.data?.access)
		let closed: (close: [number, string]) => void = () => {}
		const revoked = new Promise<[number, string]>((resolve) => {
			closed = resolve
		})
		const client = createClient({
			url: server.url,
			token: () => (tokens === 0 ? current : fresh()),
			reconnect: { initialDelayMs: 10, maxDelayMs: 50 },
			onClose: (code, reason) => closed([code, reason]),
		})
		try {
			const expiresAt = await client.authenticate(current)
			expect(expiresAt).toBeGreaterThan(Date.now() / 1000)
			const updates = client.updates(bob)
			await updates.ready
			// From now on the token function gives fresh tokens: set before the revocation, whose close
			// may reach the client (and its reconnection start) before the blacklist call returns.
			tokens = 1
			// Revoking the token's family closes the socket (1008): the client reconnects with a new token.
			await rest.accounts.token.blacklist.post({ refresh: String(first.data?.refresh) })
			expect(await revoked).toEqual([1008, 'credentials revoked'])
			expect(await client.send('get_account_ttl', { userbot_id: bob })).toMatchObject({ days: 180 })
			expect(tokens).toBeGreaterThan(1)
			await updates.close()
		} finally {
			client.close()
		}
	})
})

describe('client.updates', () => {
	it("iterates a userbot's live updates", async () => {
		const client = createClient({ url: server.url, token: user.access })
		try {
			const updates = client.updates(bob, { kinds: ['updateNewMessage'] })
			const lastSeq = await updates.ready
			await client.send('send_message', { userbot_id: bob, chat_id: LOUNGE, text: 'hello, iterator' })
			const first = await updates.next()
			expect(first.done).toBe(false)
			expect(first.value).toMatchObject({
				type: 'update',
				userbot_id: bob,
				update: { _: 'updateNewMessage' },
			})
			expect((first.value as { seq: number }).seq).toBeGreaterThan(lastSeq)
			await updates.close()
			expect((await updates.next()).done).toBe(true)
		} finally {
			client.close()
		}
	})

	it('resumes after a dropped connection from the last update it saw: nothing lost, nothing twice', async () => {
		const rest = createRestClient(server.url)
		const pair = async () => {
			const made = await rest.accounts.token.post({ email: user.email, password: user.password })
			return { access: String(made.data?.access), refresh: String(made.data?.refresh) }
		}
		const first = await pair()
		let current = first.access
		// While the gate is shut the client cannot come back: what is sent then must be replayed.
		let openGate = () => {}
		let gate = Promise.resolve()
		const client = createClient({
			url: server.url,
			token: async () => {
				await gate
				return current
			},
			reconnect: { initialDelayMs: 10, maxDelayMs: 50 },
		})
		const other = createClient({ url: server.url, token: user.access })
		const text = (event: unknown) =>
			(event as { update: { message: { content: { text: { text: string } } } } }).update.message.content.text
				.text
		try {
			const updates = client.updates(bob, { kinds: ['updateNewMessage'] })
			await updates.ready
			await client.send('send_message', { userbot_id: bob, chat_id: LOUNGE, text: 'before the drop' })
			const before = await updates.next()
			expect(text(before.value)).toBe('before the drop')

			gate = new Promise<void>((resolve) => {
				openGate = resolve
			})
			current = (await pair()).access
			await rest.accounts.token.blacklist.post({ refresh: first.refresh })
			const deadline = Date.now() + 5_000
			while (client.connected && Date.now() < deadline) await Bun.sleep(10)
			expect(client.connected).toBe(false)
			await other.send('send_message', { userbot_id: bob, chat_id: LOUNGE, text: 'while away' })
			openGate()
			await client.send('send_message', { userbot_id: bob, chat_id: LOUNGE, text: 'after the return' })

			const away = await updates.next()
			const after = await updates.next()
			expect([text(away.value), text(after.value)]).toEqual(['while away', 'after the return'])
			const seqs = [before, away, after].map((r) => (r.value as { seq: number }).seq)
			expect(seqs).toEqual([...seqs].sort((a, b) => a - b))
			expect(new Set(seqs).size).toBe(3)
			await updates.close()
		} finally {
			client.close()
			other.close()
		}
	})
})

describe('backoffDelay', () => {
	it('doubles from the first wait up to the longest, with jitter in the upper half', () => {
		const opts = { initialDelayMs: 100, maxDelayMs: 1_000 }
		const ceilings = [0, 1, 2, 3, 4, 10].map((attempt) => backoffDelay(attempt, opts, () => 1))
		expect(ceilings).toEqual([100, 200, 400, 800, 1_000, 1_000])
		const floors = [0, 1, 2, 3, 4, 10].map((attempt) => backoffDelay(attempt, opts, () => 0))
		expect(floors).toEqual([50, 100, 200, 400, 500, 500])
		expect(backoffDelay(0)).toBeWithin(125, 251)
	})
})
