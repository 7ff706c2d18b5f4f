import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type { Browser } from 'playwright-core'
import { startTestServer, type TestServer } from 'userbot-gateway/testing'
import { launchBrowser } from './browser'

/**
 * `/api/docs` offline: a real browser opens it with every request to anything but the server refused,
 * and finds every operation of the OpenAPI document listed, with nothing asked of another origin.
 */
let server: TestServer
let browser: Browser
beforeAll(async () => {
	server = await startTestServer()
	browser = await launchBrowser()
}, 60_000)
afterAll(async () => {
	await browser?.close()
	server?.stop()
})

describe('GET /api/docs', () => {
	it('lists every operation with the network beyond the server blocked', async () => {
		const page = await browser.newPage()
		const refused: string[] = []
		await page.route('**/*', (route) => {
			const url = route.request().url()
			if (url.startsWith(`${server.url}/`)) return route.continue()
			refused.push(url)
			return route.abort('blockedbyclient')
		})
		await page.goto(`${server.url}/api/docs`, { waitUntil: 'load' })
		const doc = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as {
			paths: Record<string, Record<string, unknown>>
		}
		const expected = Object.entries(doc.paths).flatMap(([path, ops]) =>
			Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
		)
		const listed = await page.$$eval('section.operation h3', (hs) =>
			hs.map((h) => (h.textContent ?? '').trim().replace(/\s+/g, ' ')),
		)
		expect(expected.length).toBeGreaterThan(30)
		expect(listed.sort()).toEqual(expected.sort())
		expect(await page.textContent('body')).toContain('A JWT pair for a server client')
		expect(refused).toEqual([])
		await page.close()
	})
})
