import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { type AccountsApp, startAccounts } from './support'

let app: AccountsApp
beforeAll(async () => {
	app = await startAccounts()
})
afterAll(() => app.stop())

const send = (method: string, path: string) => fetch(app.url + path, { method })

const POST_ONLY = [
	'/accounts/register/',
	'/accounts/check-password/',
	'/accounts/login/',
	'/accounts/logout/',
	'/accounts/request-reset/',
	'/accounts/reset-password/',
	'/accounts/token/',
	'/accounts/token/refresh/',
	'/accounts/token/blacklist/',
	'/accounts/invites/1/revoke/',
]

describe('methods and paths', () => {
	it('answers a method a path does not serve with DRF 405 and Allow', async () => {
		for (const path of POST_ONLY) {
			for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
				const res = await send(method, path)
				expect(`${method} ${path} ${res.status}`).toBe(`${method} ${path} 405`)
				expect(res.headers.get('allow')).toBe('POST, OPTIONS')
				expect(await res.json()).toEqual({ detail: `Method "${method}" not allowed.` })
			}
		}
		const me = await send('POST', '/accounts/me/')
		expect(me.status).toBe(405)
		expect(me.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
		expect(await me.json()).toEqual({ detail: 'Method "POST" not allowed.' })
		const invites = await send('DELETE', '/accounts/invites/')
		expect(invites.status).toBe(405)
		expect(invites.headers.get('allow')?.split(', ').sort()).toEqual(['GET', 'HEAD', 'OPTIONS', 'POST'])
	})

	it('answers OPTIONS with the allowed methods, and HEAD like GET', async () => {
		const options = await send('OPTIONS', '/accounts/token/refresh/')
		expect(options.status).toBe(200)
		expect(options.headers.get('allow')).toBe('POST, OPTIONS')
		expect(((await options.json()) as { name: string }).name).toBe('Token Refresh')
		expect((await send('HEAD', '/accounts/me/')).status).toBe(401)
		expect((await send('HEAD', '/accounts/login/')).status).toBe(405)
	})

	it('answers an unknown path with DRF 404', async () => {
		for (const path of ['/accounts/nope/', '/accounts/token/nope/', '/accounts/invites/1/revoke/extra/']) {
			const res = await send('GET', path)
			expect(res.status).toBe(404)
			expect(await res.json()).toEqual({ detail: 'Not found.' })
		}
	})
})
