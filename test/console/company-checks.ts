import { expect } from 'bun:test'
import type { Page } from 'playwright-core'
import { horizontalOverflow, seriousViolations } from './a11y'
import { screenshot } from './browser'

/**
 * The checks every company page passes (API keys, members, invites, audit log, webhooks): at
 * 1280 × 800 and at 390 × 844, no serious or critical axe-core violation, and nothing wider than
 * the phone's screen. `ready` is a selector the page shows once loaded.
 */
export async function checkBothSizes(page: Page, ready: string, shot?: string): Promise<void> {
	for (const size of [
		{ width: 1280, height: 800 },
		{ width: 390, height: 844 },
	]) {
		await page.setViewportSize(size)
		await page.waitForSelector(ready)
		expect(await seriousViolations(page)).toEqual([])
		if (size.width === 390) expect(await horizontalOverflow(page)).toBe(0)
		if (shot) await screenshot(page, size.width === 390 ? `${shot}-phone` : shot)
	}
	await page.setViewportSize({ width: 1280, height: 800 })
}

/** Problems a page reported, less the refused requests a test provokes (they show as failed loads). */
export const unexpected = (problems: string[]) =>
	problems.filter((p) => !/Failed to load resource|WebSocket connection to .* failed/.test(p))
