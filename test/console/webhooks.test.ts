import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type { Page } from 'playwright-core'
import { Webhook } from 'standardwebhooks'
import { HOOK_ENV, insertUserbot, publish, type Receiver, startReceiver } from '../plugins/webhooks/receiver'
import { goTo, screenshot } from './browser'
import { checkBothSizes, PHONE, useConsole } from './harness'

/**
 * The console's Webhooks page in headless chromium: an owner adds an endpoint and is shown its
 * secret once, sends a test event that the receiver verifies with the `standardwebhooks` package,
 * sees the deliveries with their attempts, and replays a stored event; then makes the endpoint a new
 * secret, turns it off and on, and deletes it, each asked first in the page, from the keyboard.
 */
const h = useConsole({ ...HOOK_ENV, PLUGINS: 'accounts,userbots,webhooks' })
let rx: Receiver
beforeAll(() => {
	rx = startReceiver()
})
afterAll(() => rx?.stop())

/** Adds an endpoint at the receiver's `path` through the page's form; its id and secret. */
async function addEndpoint(page: Page, path: string, description: string) {
	await page.fill('form[name=create-webhook] input[name=url]', `${rx.url}/${path}`)
	await page.fill('form[name=create-webhook] input[name=description]', description)
	await page.click('form[name=create-webhook] button')
	const secret = await (await page.waitForSelector('[data-webhook-secret]')).inputValue()
	const row = page.locator('tr[data-webhook]', { hasText: `/hook/${path}` })
	await row.waitFor()
	return { id: (await row.getAttribute('data-webhook')) ?? '', secret }
}

/** The last request the receiver got on `path` after `before` requests. */
async function nextOn(path: string, before: number) {
	await rx.until((r) => r.filter((x) => x.path === `/hook/${path}`).length > before)
	return rx.received.filter((x) => x.path === `/hook/${path}`).at(-1)
}

describe('web console: webhooks', () => {
	it('adds an endpoint with its secret shown once, tests it, lists deliveries and replays, at 390 px', async () => {
		const session = await h.signedIn('hooks', { size: PHONE })
		const page = session.page
		await goTo(page, 'webhooks')
		await page.waitForSelector('[data-page=webhooks] [data-empty=webhooks]')
		const { id, secret } = await addEndpoint(page, 'console', 'our server')
		expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
		expect(await page.textContent('[data-created-webhook]')).toContain('will not be shown again')

		// A test event, signed with that secret; its delivery shown once it is made, with no click.
		await page.click(`[data-deliveries="${id}"]`)
		await page.waitForSelector('[data-empty=deliveries]')
		await page.click('[data-action=test-webhook]')
		const test = await nextOn('console', 0)
		expect(new Webhook(secret).verify(test?.body ?? '', test?.headers ?? {})).toMatchObject({
			type: 'webhook.test',
		})
		await page.waitForSelector('tr[data-delivery][data-status=delivered]')
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
		await page.waitForSelector('[data-page=webhooks] .co-notice.ok:text("Replayed 1.")')
		await rx.until(() => got().length === 2)
		expect(got()[1]?.headers['webhook-id']).toBe(got()[0]?.headers['webhook-id'] as string)

		// Accessible and nothing wider than the screen, at both sizes; the secret is not shown again.
		await checkBothSizes(page, 'tr[data-delivery][data-status=delivered]')
		await page.setViewportSize(PHONE)
		await page.locator('tr[data-delivery]').first().scrollIntoViewIfNeeded()
		await screenshot(page, 'webhooks')
		await goTo(page, 'userbots')
		await page.waitForSelector('[data-page=userbots]')
		await goTo(page, 'webhooks')
		await page.waitForSelector('tr[data-webhook]')
		expect(await page.$('[data-webhook-secret]')).toBeNull()
		expect(await page.content()).not.toContain(secret)
		await session.finish()
	}, 60_000)

	it('makes a new secret, turns the endpoint off and on, and deletes it, each asked in the page from the keyboard', async () => {
		const session = await h.signedIn('rotate')
		const page = session.page
		// The browser's own dialogs are never used: any would be recorded here.
		const dialogs: string[] = []
		page.on('dialog', (d) => {
			dialogs.push(d.message())
			void d.dismiss()
		})
		await goTo(page, 'webhooks')
		const { id, secret } = await addEndpoint(page, 'rotated', 'rotated server')
		await page.click('[data-action=hide-secret]')
		const focused = (selector: string) =>
			page.locator(selector).evaluate((el) => el === document.activeElement)

		// Asked first; Escape takes the question back and gives the focus back to its button.
		await page.focus(`[data-rotate="${id}"]`)
		await page.keyboard.press('Enter')
		await page.waitForSelector(`[data-confirm-rotate="${id}"]`)
		expect(await focused(`[data-confirm-rotate="${id}"]`)).toBe(true)
		expect(await page.textContent(`tr[data-webhook="${id}"] .co-confirm`)).toContain('24 hours')
		await page.keyboard.press('Escape')
		await page.waitForSelector(`[data-rotate="${id}"]`)
		expect(await focused(`[data-rotate="${id}"]`)).toBe(true)
		await page.keyboard.press('Enter')
		await page.waitForSelector(`[data-confirm-rotate="${id}"]`)
		await page.keyboard.press('Enter')
		const fresh = await (await page.waitForSelector('[data-webhook-secret]')).inputValue()
		expect(fresh).toMatch(/^whsec_/)
		expect(fresh).not.toBe(secret)
		await page.waitForSelector(`tr[data-webhook="${id}"] [data-previous-secret]`)
		await checkBothSizes(page, `tr[data-webhook="${id}"] [data-previous-secret]`)

		// The next event is signed with the new secret, and with the old one beside it.
		const before = rx.received.filter((x) => x.path === '/hook/rotated').length
		await page.click(`[data-deliveries="${id}"]`)
		await page.click('[data-action=test-webhook]')
		const signed = await nextOn('rotated', before)
		for (const key of [fresh, secret]) {
			expect(new Webhook(key).verify(signed?.body ?? '', signed?.headers ?? {})).toMatchObject({
				type: 'webhook.test',
			})
		}

		// Off, then on again: the state in words, and the server agrees.
		const enabled = async () =>
			(await page.evaluate(async (n) => (await fetch(`/api/webhooks/${n}/`)).json(), id)) as {
				enabled: boolean
			}
		await page.click(`[data-disable="${id}"]`)
		await page.waitForSelector(`tr[data-webhook="${id}"][data-enabled=false] [data-state=off]`)
		expect((await enabled()).enabled).toBe(false)
		await page.click(`[data-enable="${id}"]`)
		await page.waitForSelector(`tr[data-webhook="${id}"][data-enabled=true] [data-state=on]`)
		expect((await enabled()).enabled).toBe(true)

		// Deleted after the question, confirmed from the keyboard.
		await page.focus(`[data-delete="${id}"]`)
		await page.keyboard.press('Enter')
		await page.waitForSelector(`[data-confirm-delete="${id}"]`)
		expect(await focused(`[data-confirm-delete="${id}"]`)).toBe(true)
		await page.keyboard.press('Enter')
		await page.waitForSelector('[data-page=webhooks] .co-notice.ok:text("is deleted")')
		await page.waitForSelector('[data-empty=webhooks]')
		expect(await page.$('[data-webhook-detail] section')).toBeNull()
		expect(await page.evaluate(async (n) => (await fetch(`/api/webhooks/${n}/`)).status, id)).toBe(404)
		expect(dialogs).toEqual([])
		await session.finish()
	}, 60_000)
})
