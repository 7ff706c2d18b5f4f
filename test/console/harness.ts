import { afterAll, beforeAll, expect } from 'bun:test'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { getTestInstance, type TestInstance } from '../helpers'
import { horizontalOverflow, seriousViolations } from './a11y'
import { launchBrowser, logIn, register, screenshot, watchPage } from './browser'

/**
 * What every console test file shares, so that each states only what it checks: a server and a
 * browser started before its tests and stopped after them; pages in contexts of their own that
 * record and refuse every request to a host other than the server; a fresh owner registered and
 * logged in; and the checks every page passes (axe-core and the 390 px rule, at both sizes).
 */

/**
 * How long a hook or a page test may take: `bun test test/console` runs without `npm test`'s
 * `--timeout`, and on a loaded machine starting a context, a server or axe-core takes seconds.
 */
export const SLOW = 60_000

export const WIDE = { width: 1280, height: 800 }
export const PHONE = { width: 390, height: 844 }
/** The two sizes every page is checked at: a desktop's and a phone's. */
export const SIZES = [
	{ name: 'wide', ...WIDE },
	{ name: 'phone', ...PHONE },
] as const

type Size = { width: number; height: number }

/** A page in a browser context of its own (its own cookies), watched from its first request. */
export interface Session {
	page: Page
	context: BrowserContext
	/** Script errors and console errors the page reported (watchPage). */
	problems: string[]
	/** Every request to another host, refused (the console asks nothing of anyone but the server). */
	elsewhere: string[]
	/**
	 * Asserts that the page asked nothing of another host and reported nothing unexpected, then
	 * closes its context. `sockets`: a WebSocket the test had the server refuse is expected too.
	 */
	finish(opts?: { sockets?: boolean }): Promise<void>
	close(): Promise<void>
}

export interface SessionOptions {
	size?: Size
	/** The origin the page may ask (default: the server's). */
	origin?: string
	timeout?: number
}

export interface Harness<S extends { url: string }> {
	readonly server: S
	readonly browser: Browser
	/** A new page in its own context, at `size` (1280 × 800 unless told). */
	open(opts?: SessionOptions): Promise<Session>
	/** A new page with a new owner registered (names, at an invite link) and logged in. */
	signedIn(tag: string, opts?: SessionOptions): Promise<Session & { email: string }>
	/** An address no other test of the run uses. */
	email(tag: string): string
}

/** Failed loads are answers a page expects (a 401 before log-in, a refusal a test provokes). */
export function unexpected(problems: string[], sockets = false): string[] {
	const expected = sockets
		? /Failed to load resource|WebSocket connection to .* failed/
		: /Failed to load resource/
	return problems.filter((p) => !expected.test(p))
}

/**
 * Registers the file's `beforeAll` and `afterAll`: a server (the emulator's, with `env`, unless a
 * `start` is given) and chromium. Call it at the top of a test file, before its own hooks.
 */
export function useConsole(env?: Record<string, string>): Harness<TestInstance>
export function useConsole<S extends { url: string; stop(): unknown }>(start: () => Promise<S>): Harness<S>
export function useConsole(
	how: Record<string, string> | (() => Promise<{ url: string; stop(): unknown }>) = {},
): Harness<{ url: string; stop(): unknown }> {
	let server: { url: string; stop(): unknown } | undefined
	let browser: Browser | undefined
	let n = 0
	beforeAll(async () => {
		server = typeof how === 'function' ? await how() : await getTestInstance(how)
		browser = await launchBrowser()
	}, SLOW)
	afterAll(async () => {
		await browser?.close()
		await server?.stop()
	}, SLOW)
	const started = <T>(what: T | undefined, name: string): T => {
		if (what === undefined) throw new Error(`the console harness's ${name} is not started yet`)
		return what
	}
	const harness: Harness<{ url: string; stop(): unknown }> = {
		get server() {
			return started(server, 'server')
		},
		get browser() {
			return started(browser, 'browser')
		},
		email: (tag) => `${tag}.${Date.now().toString(36)}${n++}@example.com`,
		open: (opts = {}) => openSession(harness.browser, opts.origin ?? harness.server.url, opts),
		async signedIn(tag, opts = {}) {
			const session = await harness.open(opts)
			const email = harness.email(tag)
			await register(session.page, harness.server.url, email)
			await logIn(session.page, email)
			return { ...session, email }
		},
	}
	return harness
}

async function openSession(browser: Browser, url: string, opts: SessionOptions): Promise<Session> {
	const context = await browser.newContext({ viewport: opts.size ?? WIDE })
	const origin = new URL(url).origin
	const elsewhere: string[] = []
	// Any request to another host is written down and refused: `finish` fails on it.
	await context.route('**/*', (route) => {
		const target = route.request().url()
		if (/^(data|blob):/.test(target) || new URL(target).origin === origin) return route.continue()
		elsewhere.push(target)
		return route.abort('blockedbyclient')
	})
	const page = await context.newPage()
	page.setDefaultTimeout(opts.timeout ?? 10_000)
	const problems = watchPage(page)
	const close = () => context.close()
	return {
		page,
		context,
		problems,
		elsewhere,
		close,
		async finish({ sockets = false } = {}) {
			expect(elsewhere).toEqual([])
			expect(unexpected(problems, sockets)).toEqual([])
			await close()
		},
	}
}

/**
 * The checks every page passes, as it is now: no serious or critical axe-core violation and
 * nothing wider than the viewport (named, so a failure says which page); then its screenshot.
 */
export async function checkPage(page: Page, name: string, shot?: string): Promise<void> {
	expect({ name, violations: await seriousViolations(page) }).toEqual({ name, violations: [] })
	expect({ name, overflow: await horizontalOverflow(page) }).toEqual({ name, overflow: 0 })
	if (shot) await screenshot(page, shot)
}

/**
 * The same checks at 1280 × 800 and at 390 × 844 on one page (`ready`: a selector it shows once
 * drawn); `shot` names the screenshots (`<shot>` and `<shot>-phone`). The page ends at 1280 × 800.
 */
export async function checkBothSizes(page: Page, ready: string, shot?: string): Promise<void> {
	for (const size of SIZES) {
		await page.setViewportSize(size)
		await page.waitForSelector(ready)
		await checkPage(
			page,
			`${ready} at ${size.width} px`,
			shot && (size.name === 'phone' ? `${shot}-phone` : shot),
		)
	}
	await page.setViewportSize(WIDE)
}

/** Adds a userbot from the Userbots page's form and waits for its card; its id. */
export async function addUserbotCard(page: Page, name: string): Promise<number> {
	await page.fill('form[name=add-userbot] input[name=name]', name)
	await page.click('form[name=add-userbot] button')
	const card = page.locator('li[data-userbot]', { hasText: name })
	await card.waitFor()
	return Number(await card.getAttribute('data-userbot'))
}
