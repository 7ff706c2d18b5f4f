import { afterAll, beforeAll, describe, expect, it, spyOn } from 'bun:test'
import { limitHashing } from '../../src/server/auth/hash-limit'
import type { PasswordHasher } from '../../src/server/auth/passwords'
import { loadConfig } from '../../src/server/config'
import { getTestInstance, type TestInstance } from '../helpers'

/** A hasher whose calls finish when the test says, counting how many run at once. */
function heldHasher() {
	const held: Array<() => void> = []
	let running = 0
	let most = 0
	const work = async () => {
		running++
		most = Math.max(most, running)
		await new Promise<void>((resolve) => held.push(resolve))
		running--
	}
	const hasher: PasswordHasher = {
		hash: async (p) => {
			await work()
			return `hash:${p}`
		},
		verify: async (p, h) => {
			await work()
			return h === `hash:${p}`
		},
		needsRehash: () => false,
	}
	return { hasher, held, most: () => most }
}

describe('limitHashing', () => {
	it('runs at most the limit at once, and every other call waits its turn in order', async () => {
		const { hasher, held, most } = heldHasher()
		const limited = limitHashing(hasher, 2)
		const order: number[] = []
		const calls = Array.from({ length: 7 }, (_, i) =>
			(i % 2 ? limited.verify(`p${i}`, `hash:p${i}`) : limited.hash(`p${i}`)).then(() => order.push(i)),
		)
		await Bun.sleep(0)
		expect(limited.load()).toEqual({ running: 2, waiting: 5 })
		while (order.length < 7) {
			held.shift()?.()
			await Bun.sleep(0)
		}
		await Promise.all(calls)
		expect(most()).toBe(2)
		expect(order).toEqual([0, 1, 2, 3, 4, 5, 6])
		expect(limited.load()).toEqual({ running: 0, waiting: 0 })
	})

	it('gives the turn on when a hash fails', async () => {
		const failing: PasswordHasher = {
			hash: async () => {
				throw new Error('out of memory')
			},
			verify: async () => true,
			needsRehash: () => false,
		}
		const limited = limitHashing(failing, 1)
		const results = await Promise.allSettled([limited.hash('a'), limited.hash('b'), limited.verify('c', 'd')])
		expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'fulfilled'])
		expect(limited.load()).toEqual({ running: 0, waiting: 0 })
	})

	it('is configured by PASSWORD_HASH_CONCURRENCY, one core left free by default', () => {
		expect(
			loadConfig({ DATA_DIR: '/tmp/ubg-hash-limit', PASSWORD_HASH_CONCURRENCY: '3' }).passwordHashConcurrency,
		).toBe(3)
		const cores = navigator.hardwareConcurrency
		expect(loadConfig({ DATA_DIR: '/tmp/ubg-hash-limit' }).passwordHashConcurrency).toBe(
			Math.max(1, cores - 1),
		)
		expect(() => loadConfig({ DATA_DIR: '/tmp/ubg-hash-limit', PASSWORD_HASH_CONCURRENCY: '0' })).toThrow(
			'PASSWORD_HASH_CONCURRENCY',
		)
	})
})

describe('a storm of logins', () => {
	let t: TestInstance
	const PASSWORD = 'Correct-Horse-42'
	const emails = Array.from({ length: 12 }, (_, i) => `storm-${i}@example.com`)
	beforeAll(async () => {
		t = await getTestInstance({ PASSWORD_HASH_CONCURRENCY: '2' })
		for (const email of emails) {
			const res = await fetch(`${t.url}/accounts/register/`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ email, password: PASSWORD, first_name: 'S', last_name: 'T' }),
			})
			expect(res.status).toBe(201)
		}
	})
	afterAll(() => t.stop())

	it('hashes two at a time and lets every login through', async () => {
		const real = Bun.password.verify.bind(Bun.password)
		let running = 0
		let most = 0
		const verify = spyOn(Bun.password, 'verify').mockImplementation(async (...args) => {
			running++
			most = Math.max(most, running)
			try {
				return await real(...args)
			} finally {
				running--
			}
		})
		try {
			const logins = await Promise.all(
				[...emails, ...emails].map((email) =>
					fetch(`${t.url}/accounts/token/`, {
						method: 'POST',
						headers: { 'content-type': 'application/json' },
						body: JSON.stringify({ email, password: PASSWORD }),
					}),
				),
			)
			// None refused: the ones past the limit waited their turn.
			expect(logins.map((r) => r.status)).toEqual(Array(24).fill(200))
			expect(verify).toHaveBeenCalledTimes(24)
			expect(most).toBe(2)
		} finally {
			verify.mockRestore()
		}
	}, 30_000)
})
