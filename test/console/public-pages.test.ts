import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type { Browser } from 'playwright-core'
import { getTestInstance, type TestInstance } from '../helpers'
import { horizontalOverflow, seriousViolations } from './a11y'
import { launchBrowser } from './browser'

/**
 * The pages the walk (product.test.ts) does not pass through: asking for a reset link, and the reset
 * page an e-mailed link opens (with a token that will not be accepted: the page is what is checked,
 * before it is sent). Each at both sizes: no serious or critical axe-core violation, nothing wider
 * than the screen.
 */
let server: TestInstance
let browser: Browser
beforeAll(async () => {
	server = await getTestInstance()
	browser = await launchBrowser()
}, 30_000)
afterAll(async () => {
	await browser?.close()
	await server?.stop()
})

const PAGES = [
	{ name: 'forgot', path: '/#/forgot' },
	{ name: 'reset', path: '/reset-password#uid=MQ&token=not-a-real-token' },
] as const

describe('the console pages outside the walk', () => {
	for (const viewport of [
		{ width: 1280, height: 800 },
		{ width: 390, height: 844 },
	]) {
		for (const p of PAGES) {
			it(`${p.name} at ${viewport.width} px: accessible and no wider than the screen`, async () => {
				const context = await browser.newContext({ viewport })
				try {
					const page = await context.newPage()
					await page.goto(`${server.url}${p.path}`)
					await page.waitForSelector(`[data-page="${p.name}"]`)
					expect(await seriousViolations(page)).toEqual([])
					expect(await horizontalOverflow(page)).toBe(0)
				} finally {
					await context.close()
				}
			})
		}
	}
})
