import { describe, expect, it } from 'bun:test'
import { startTestServer } from 'userbot-gateway/testing'
import { SLOW, useConsole } from './harness'

/**
 * `/api/docs` offline: a real browser opens it with every request to anything but the server refused,
 * and finds every operation of the OpenAPI document listed, with nothing asked of another origin.
 */
const h = useConsole(startTestServer)

describe('GET /api/docs', () => {
	it(
		'lists every operation with the network beyond the server blocked',
		async () => {
			const session = await h.open()
			const page = session.page
			await page.goto(`${h.server.url}/api/docs`, { waitUntil: 'load' })
			const doc = (await (await fetch(`${h.server.url}/api/openapi.json`)).json()) as {
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
			expect(session.elsewhere).toEqual([])
			await session.finish()
		},
		SLOW,
	)
})
