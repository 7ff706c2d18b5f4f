import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { Webhook } from 'standardwebhooks'
import { HOOK_ENV, insertUserbot, publish, type Receiver, startReceiver } from '../plugins/webhooks/receiver'
import { screenshot } from './browser'
import { useConsole } from './harness'

/**
 * The console's Webhooks page in headless chromium, on a phone-sized screen (390 px): an owner adds
 * an endpoint and is shown its secret once, sends a test event that the receiver verifies with the
 * `standardwebhooks` package, sees the deliveries with their attempts, and replays a stored event.
 */
const h = useConsole({ ...HOOK_ENV, PLUGINS: 'accounts,userbots,webhooks' })
let rx: Receiver
beforeAll(() => {
	rx = startReceiver()
})
afterAll(() => rx?.stop())

describe('web console: webhooks', () => {
	it('adds an endpoint with its secret shown once, tests it, lists deliveries and replays, at 390 px', async () => {
		const session = await h.signedIn('hooks', { size: { width: 390, height: 800 } })
		const page = session.page
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
		const ub = await insertUserbot(h.server, me.company.id)
		publish(h.server, ub, 'hello from the console test')
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
		// Failed loads are answers the page expects (the profile asked for before logging in).
		await session.finish()
	}, 60_000)
})
