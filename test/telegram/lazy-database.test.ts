import { describe, expect, it } from 'bun:test'
import { withLazyDatabase } from '../../src/runtime/telegram/lazy-database'
import type { BackendClient, TdRequest, TdUpdate } from '../../src/runtime/telegram/types'

/** A TDLib client instance whose answers the test hands out, in the order it chooses. */
class FakeInstance implements BackendClient {
	readonly requests: string[] = []
	readonly held: Array<() => void> = []
	closed = false
	private readonly listeners: Array<(u: TdUpdate) => void> = []
	constructor(readonly databases: boolean) {}
	invoke(request: TdRequest): Promise<unknown> {
		this.requests.push(request._)
		return new Promise((resolve) => this.held.push(() => resolve({ _: 'ok' })))
	}
	onUpdate(listener: (u: TdUpdate) => void) {
		this.listeners.push(listener)
	}
	state(name: string) {
		const u = { _: 'updateAuthorizationState', authorization_state: { _: name } } as unknown as TdUpdate
		for (const l of this.listeners) l(u)
	}
	async close() {
		this.state('authorizationStateClosing')
		this.closed = true
		this.state('authorizationStateClosed')
	}
}

function lazy(databases: boolean, failsToReopen = false) {
	const opened: FakeInstance[] = []
	const seen: string[] = []
	let forgotten = 0
	const client = withLazyDatabase(
		(withDb) => {
			if (failsToReopen && opened.length > 0) throw new Error('cannot open')
			const instance = new FakeInstance(withDb)
			opened.push(instance)
			return instance
		},
		databases,
		() => forgotten++,
	)
	client.onUpdate((u) => {
		if (u._ === 'updateAuthorizationState') seen.push(u.authorization_state._)
	})
	return { client, opened, seen, forgotten: () => forgotten }
}

/** Lets every settled promise run its continuations. */
const drain = async () => {
	for (let i = 0; i < 10; i++) await Promise.resolve()
}

describe('withLazyDatabase', () => {
	it('starts without the database, and reopens with it once the log-in is done, as one client', async () => {
		const { client, opened, seen } = lazy(false)
		const light = opened[0] as FakeInstance
		expect(light.databases).toBe(false)
		light.state('authorizationStateWaitCode')
		const code = client.invoke({ _: 'checkAuthenticationCode', code: '12345' })
		light.state('authorizationStateReady')
		// Asked while the client is being replaced: answered by the one with the database.
		const me = client.invoke({ _: 'getMe' })
		await drain()
		// The light client's answer is still due: it is not closed under it.
		expect(light.closed).toBe(false)
		expect(opened).toHaveLength(1)
		light.held.shift()?.()
		expect(await code).toEqual({ _: 'ok' })
		await drain()
		expect(light.closed).toBe(true)
		const full = opened[1] as FakeInstance
		expect(full.databases).toBe(true)
		full.state('authorizationStateWaitTdlibParameters')
		full.state('authorizationStateReady')
		await drain()
		expect(full.requests).toEqual(['getMe'])
		expect(light.requests).toEqual(['checkAuthenticationCode'])
		full.held.shift()?.()
		expect(await me).toEqual({ _: 'ok' })
		// The account saw one client: no closing of the light one, no second start.
		expect(seen).toEqual(['authorizationStateWaitCode', 'authorizationStateReady'])
		await client.close()
		expect(full.closed).toBe(true)
		expect(seen.slice(2)).toEqual(['authorizationStateClosing', 'authorizationStateClosed'])
	})

	it('starts with the database where the folder has one, and never reopens', async () => {
		const { client, opened, seen } = lazy(true)
		const full = opened[0] as FakeInstance
		expect(full.databases).toBe(true)
		full.state('authorizationStateReady')
		await drain()
		expect(opened).toHaveLength(1)
		expect(seen).toEqual(['authorizationStateReady'])
		await client.close()
	})

	it('opens nothing more when closed while it switches', async () => {
		const { client, opened } = lazy(false)
		const light = opened[0] as FakeInstance
		const code = client.invoke({ _: 'checkAuthenticationCode', code: '12345' })
		light.state('authorizationStateReady')
		const closed = client.close()
		light.held.shift()?.()
		await code
		await closed
		expect(light.closed).toBe(true)
		expect(opened).toHaveLength(1)
	})

	it('forgets the database of a client closed before it logged in, and only that', async () => {
		const waiting = lazy(true)
		;(waiting.opened[0] as FakeInstance).state('authorizationStateWaitPhoneNumber')
		await waiting.client.close()
		expect(waiting.forgotten()).toBe(1)

		const ready = lazy(true)
		;(ready.opened[0] as FakeInstance).state('authorizationStateReady')
		await ready.client.close()
		expect(ready.forgotten()).toBe(0)
	})

	it('says the client closed when the one with the database cannot be opened', async () => {
		const { client, opened, seen } = lazy(false, true)
		const light = opened[0] as FakeInstance
		light.state('authorizationStateReady')
		await drain()
		expect(light.closed).toBe(true)
		expect(seen).toEqual(['authorizationStateClosed'])
		expect(await client.invoke({ _: 'getMe' }).catch((e: Error) => e.message)).toBe('the client is closed')
		await client.close()
	})
})
