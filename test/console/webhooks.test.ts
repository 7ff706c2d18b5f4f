import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type { Browser } from 'playwright-core'
import { Webhook } from 'standardwebhooks'
import { getTestInstance, type TestInstance } from '../helpers'
import { HOOK_ENV, insertUserbot, publish, type Receiver, startReceiver } from '../plugins/webhooks/receiver'
import { launchBrowser, logIn, register, screenshot, watchPage } from './browser'

/**
 * The console's Webhooks page in headless chromium, on a phone-sized screen (390 px): an owner adds
 * an endpoint and is shown its secret once, sends a test event that the receiver verifies with the
 * `standardwebhooks` package, sees the deliveries with their attempts, and replays a stored event.
 */
let server: TestInstance
let browser: Browser
let rx: Receiver

beforeAll(async () => {
	rx = startReceiver()
	server = await getTestInstance({ ...HOOK_ENV, PLUGINS: 'accounts,userbots,webhooks' })
	browser = await launchBrowser()
}, 30_000)
afterAll(async () => {
	await browser?.close()
	await server?.stop()
	rx?.stop()
})

describe('web console: webhooks', () => {
	it('adds an endpoint with its secret shown once, tests it, lists deliveries and replays, at 390 px', async () => {
		const context = await browser.newContext({ viewport: { width: 390, height: 800 } })
		const page = await context.newPage()
		page.setDefaultTimeout(10_000)
		const problems = watchPage(page)
		const address = `hooks.${Date.now().toString(36)}@example.com`
		await register(page, server.url, address)
		await logIn(page, address)
		// At 390 px the navigation is folded into the menu.
		await page.click('button[data-action=menu]')
		await page.click('a[data-nav="webhooks"]')
		await page.waitForSelector('[data-page=webhooks]')

		await page.fill('form[name=create-webhook] input[name=url]', `${rx.url}/console`)
		await page.fill('form[name=create-webhook] input[name=description]', 'our server')
		await page.click('form[name=create-webhook] button')
		const secret = await (await page.waitForSelector('[data-webhook-secret]')).inputValue()
		expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
		await page.waitForSelector('tr[data-webhook]')
		const id = await page.getAttribute('tr[data-webhook]', 'data-webhook')

		// A test event, signed with that secret.
		await page.click(`[data-deliveries="${id}"]`)
		await page.waitForSelector('[data-action=test-webhook]')
		await page.click('[data-action=test-webhook]')
		await rx.until((r) => r.some((x) => x.path === '/hook/console'))
		const test = rx.received.find((x) => x.path === '/hook/console')
		expect(new Webhook(secret).verify(test?.body ?? '', test?.headers ?? {})).toMatchObject({
			type: 'webhook.test',
		})
		for (let i = 0; i < 100; i++) {
			await page.click('[data-action=refresh-deliveries]')
			if (await page.$('tr[data-delivery][data-status=delivered]')) break
			await Bun.sleep(50)
		}
		expect(await page.textContent('tr[data-delivery][data-status=delivered] [data-attempts]')).toBe('1')

		// A userbot's event, delivered, then replayed with its webhook-id.
		const me = (await page.evaluate(() => fetch('/accounts/me/').then((r) => r.json()))) as {
			company: { id: number }
		}
		const ub = await insertUserbot(server, me.company.id)
		publish(server, ub, 'hello from the console test')
		const got = () =>
			rx.received.filter((x) => x.path === '/hook/console' && x.json.type === 'updateNewMessage')
		await rx.until(() => got().length === 1)
		await page.fill('form[name=replay-webhook] input[name=userbot_id]', String(ub))
		await page.fill('form[name=replay-webhook] input[name=after_seq]', '0')
		await page.click('form[name=replay-webhook] button')
		await page.waitForSelector('form[name=replay-webhook] + .status:text("Replayed 1.")')
		await rx.until(() => got().length === 2)
		expect(got()[1]?.headers['webhook-id']).toBe(got()[0]?.headers['webhook-id'] as string)

		// Nothing wider than the screen; the secret is not shown again.
		expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
		await screenshot(page, 'webhooks')
		await page.click('button[data-action=menu]')
		await page.click('a[data-nav="userbots"]')
		await page.waitForSelector('[data-page=userbots]')
		await page.click('button[data-action=menu]')
		await page.click('a[data-nav="webhooks"]')
		await page.waitForSelector('tr[data-webhook]')
		expect(await page.$('[data-webhook-secret]')).toBeNull()
		expect(await page.content()).not.toContain(secret)
		// Failed loads are answers the page expects (the profile asked for before logging in), as in
		// the other console tests.
		expect(problems.filter((p) => !/Failed to load resource/.test(p))).toEqual([])
		await context.close()
	}, 60_000)
})
