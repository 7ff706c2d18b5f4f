import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { type FreshServer, type Member, serveFresh, signUp } from './support'

let server: FreshServer
let owner: Member

beforeAll(async () => {
	server = await serveFresh({ TDLIB_BACKEND: 'tdlib' })
	owner = await signUp(server.url)
})

afterAll(() => server.dispose())

describe('userbots without Telegram credentials', () => {
	it('answer 503 on create, naming what to set and where to get it', async () => {
		const res = await owner.call('POST', '/api/userbots/', { name: 'x' })
		expect(res.status).toBe(503)
		const body = (await res.json()) as { detail: string; code: string }
		expect(body.detail).toContain('TELEGRAM_API_ID')
		expect(body.detail).toContain('TELEGRAM_API_HASH')
		expect(body.detail).toContain('my.telegram.org')
		expect(body.code).toBe('telegram_not_configured')
	})

	it('still list (nothing) and serve the rest', async () => {
		expect(await (await owner.call('GET', '/api/userbots/')).json()).toEqual([])
		expect((await owner.call('GET', '/api/userbots/1/')).status).toBe(404)
		expect((await fetch(`${server.url}/health`)).status).toBe(200)
	})

	it("answer 404 for a userbot that is not the caller's before saying Telegram is not configured", async () => {
		const steps: Array<[string, Record<string, string>]> = [
			['phone', { phone_number: '9996621234' }],
			['code', { code: '22222' }],
			['password', { password: 'secret-2fa' }],
			['qr', {}],
		]
		for (const [step, body] of steps) {
			const res = await owner.call('POST', `/api/userbots/9999/${step}/`, body)
			expect(res.status).toBe(404)
			expect(await res.json()).toEqual({ detail: 'Not found.' })
		}
	})
})
