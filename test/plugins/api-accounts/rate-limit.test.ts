import { afterAll, beforeAll, describe, expect, it, spyOn } from 'bun:test'
import { edgeLogin, mainAccount, PASSWORD, type Pair, post, startPair } from './support'

let pair: Pair
beforeAll(async () => {
	pair = await startPair()
})
afterAll(() => pair.stop())

/** Counts the main server's credential checks (its token/ view), restoring the spy afterwards. */
async function countingMainCalls<T>(run: (calls: () => number) => Promise<T>): Promise<T> {
	const spy = spyOn(pair.mainCore, 'checkCredentials')
	try {
		return await run(() => spy.mock.calls.length)
	} finally {
		spy.mockRestore()
	}
}

describe('family B login rate limit', () => {
	it('answers the 6th attempt after 5 failures 429 with Retry-After, without calling the main', async () => {
		const owner = await mainAccount(pair.main)
		await countingMainCalls(async (calls) => {
			for (let i = 0; i < 5; i++) {
				expect((await edgeLogin(pair.edge, owner.email, 'Wrong-password-1')).status).toBe(401)
			}
			expect(calls()).toBe(5)
			const sixth = await edgeLogin(pair.edge, owner.email, PASSWORD)
			expect(sixth.status).toBe(429)
			expect(Number(sixth.res.headers.get('retry-after'))).toBeGreaterThan(0)
			expect((sixth.body as { code: string }).code).toBe('throttled')
			expect(calls()).toBe(5)
		})
	})

	it('lets no more than 5 of many concurrent guesses reach the main server', async () => {
		const owner = await mainAccount(pair.main)
		await countingMainCalls(async (calls) => {
			const answers = await Promise.all(
				Array.from({ length: 12 }, () => edgeLogin(pair.edge, owner.email, 'Wrong-password-1')),
			)
			expect(calls()).toBe(5)
			expect(answers.filter((a) => a.status === 401).length).toBe(5)
			expect(answers.filter((a) => a.status === 429).length).toBe(7)
		})
	})

	it("counts family A's and family B's failures of one e-mail and address together", async () => {
		const email = `shared-${Date.now()}@example.com`
		for (let i = 0; i < 3; i++) {
			const res = await post(pair.edge.url, '/accounts/login/', { email, password: 'Wrong-password-1' })
			expect(res.status).toBe(401)
		}
		for (let i = 0; i < 2; i++)
			expect((await edgeLogin(pair.edge, email, 'Wrong-password-1')).status).toBe(401)
		expect((await edgeLogin(pair.edge, email, 'Wrong-password-1')).status).toBe(429)
		const familyA = await post(pair.edge.url, '/accounts/token/', { email, password: 'Wrong-password-1' })
		expect(familyA.status).toBe(429)
	})

	it('does not count successful logins', async () => {
		const owner = await mainAccount(pair.main)
		for (let i = 0; i < 7; i++) expect((await edgeLogin(pair.edge, owner.email)).status).toBe(200)
	})
})
