import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { type Browser, chromium, type Page } from 'playwright-core'

/**
 * The real browser of the console tests: Debian's chromium, driven by playwright-core (which brings
 * no browser of its own). Missing, it fails the tests with a line saying how to get it: never a skip.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export async function launchBrowser(): Promise<Browser> {
	if (!existsSync(CHROMIUM)) {
		throw new Error(
			`the console tests need chromium at ${CHROMIUM}: apt-get install chromium (.ci/run does), or set CHROMIUM_PATH`,
		)
	}
	return chromium.launch({
		executablePath: CHROMIUM,
		headless: true,
		args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
	})
}

export const PASSWORD = 'Vq7#pLm2!xZr9wTb'

/** Registers through the console's form (at `invite`, an invite link, when given). */
export async function register(
	page: Page,
	base: string,
	address: string,
	names = ['Ada', 'Lovelace'],
	invite?: string,
) {
	await page.goto(invite ?? `${base}/#/register`)
	await page.fill('form[name=register] input[name=email]', address)
	await page.fill('form[name=register] input[name=password]', PASSWORD)
	await page.fill('form[name=register] input[name=first_name]', names[0] ?? '')
	await page.fill('form[name=register] input[name=last_name]', names[1] ?? '')
	await page.click('form[name=register] button')
	await page.waitForSelector('[data-page=login]')
}

export async function logIn(page: Page, address: string, password = PASSWORD) {
	await page.fill('form[name=login-a] input[name=email]', address)
	await page.fill('form[name=login-a] input[name=password]', password)
	await page.click('form[name=login-a] button')
	await page.waitForSelector('[data-page=userbots]')
}

/**
 * Where the screenshots are written: `.tmp/screenshots/` as a test run's artifacts, so that a test run
 * leaves the tree clean; `npm run screenshots` (CONSOLE_SCREENSHOTS=docs/console) refreshes the ones
 * docs/development.md#web-console shows.
 */
const ROOT = join(import.meta.dir, '..', '..')
export const SCREENSHOTS = join(ROOT, process.env.CONSOLE_SCREENSHOTS || join('.tmp', 'screenshots'))

export async function screenshot(page: Page, name: string): Promise<void> {
	mkdirSync(SCREENSHOTS, { recursive: true })
	await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) })
}

/**
 * Everything the page reported that a test should not ignore: script errors, and console messages
 * of level error (a Content-Security-Policy violation is one).
 */
export function watchPage(page: Page): string[] {
	const problems: string[] = []
	page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`))
	page.on('console', (msg) => {
		if (msg.type() === 'error') problems.push(`console: ${msg.text()}`)
	})
	return problems
}

/**
 * Follows the navigation link to `nav` as a user would: on a narrow screen the links are folded
 * into the menu, which is opened first.
 */
export async function goTo(page: Page, nav: string): Promise<void> {
	const link = `a[data-nav="${nav}"]`
	if (!(await page.isVisible(link))) await page.click('button[data-action=menu]')
	await page.click(link)
}
