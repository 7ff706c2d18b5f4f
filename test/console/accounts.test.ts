import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { getTestInstance } from '../helpers'
import { type Inbox, startInbox } from '../plugins/accounts/smtp'
import { type Pair, startPair } from '../plugins/api-accounts/support'
import { logIn, PASSWORD, register, screenshot } from './browser'
import { SLOW, useConsole } from './harness'

/**
 * The console's account pages in headless chromium: the reset link that family A e-mails opens the
 * console's reset page; an owner invites (the link registers into the company) and sets members'
 * work statuses.
 */
let inbox: Inbox
const h = useConsole(async () => {
	inbox = await startInbox()
	return getTestInstance({ SMTP_URL: inbox.url, PLUGINS: 'accounts,userbots' })
})
afterAll(() => inbox?.close(), SLOW)

const SIZE = { width: 1100, height: 700 }

describe('web console: account pages', () => {
	it('opens the e-mailed reset link on its reset page, which sets the new password', async () => {
		const session = await h.open({ size: SIZE })
		const page = session.page
		const address = h.email('reset')
		await register(page, h.server.url, address)
		await page.click('a[href="#/forgot"]')
		await page.fill('form[name=request-reset] input[name=email]', address)
		await page.click('form[name=request-reset] button')
		await page.waitForSelector('form[name=request-reset] .status:text("on its way")')
		const mail = await inbox.next(address)
		const link = /https?:\/\/\S+/.exec(mail.text)?.[0] ?? ''
		expect(link.startsWith(`${h.server.url}/reset-password#token=`)).toBe(true)
		await page.goto(link)
		await page.waitForSelector('form[name=reset-password]')
		expect(await page.textContent('[data-email]')).toBe(address)
		// The token left the address bar once read.
		expect(page.url()).toBe(`${h.server.url}/reset-password`)
		await screenshot(page, 'reset-password')
		const fresh = 'Tq8$wLn3!vYs4uKe'
		await page.fill('form[name=reset-password] input[name=new_password]', fresh)
		await page.fill('form[name=reset-password] input[name=confirm]', fresh)
		await page.click('form[name=reset-password] button')
		await page.waitForSelector('[data-reset=done]')
		await page.click('[data-reset=done] a')
		await page.waitForSelector('[data-page=login]')
		await logIn(page, address, fresh)
		expect(await page.textContent('[data-me]')).toBe(address)
		await session.finish()
	}, 30_000)

	it('refuses a reset link that was already used, in red', async () => {
		const session = await h.open({ size: SIZE })
		const page = session.page
		const address = h.email('reused')
		await register(page, h.server.url, address)
		await page.goto(`${h.server.url}/#/forgot`)
		await page.fill('form[name=request-reset] input[name=email]', address)
		await page.click('form[name=request-reset] button')
		const link = /https?:\/\/\S+/.exec((await inbox.next(address)).text)?.[0] ?? ''
		for (const attempt of [0, 1]) {
			await page.goto(link)
			await page.fill('form[name=reset-password] input[name=new_password]', 'Tq8$wLn3!vYs4uKe')
			await page.fill('form[name=reset-password] input[name=confirm]', 'Tq8$wLn3!vYs4uKe')
			await page.click('form[name=reset-password] button')
			if (attempt === 0) await page.waitForSelector('[data-reset=done]')
		}
		const error = page.locator('[data-page=reset] .status.error')
		await error.waitFor()
		expect(await error.textContent()).toContain('Invalid or expired token.')
		await session.finish()
	}, 30_000)

	it('lets an owner invite by link, revoke an invite, and set a member’s work status', async () => {
		const owner = await h.open({ size: SIZE })
		const ownerEmail = h.email('owner')
		await register(owner.page, h.server.url, ownerEmail)
		await logIn(owner.page, ownerEmail)
		await owner.page.click('a[data-nav=invites]')
		await owner.page.click('form[name=create-invite] button')
		const linkBox = owner.page.locator('input[data-invite-link]')
		await linkBox.waitFor()
		const link = await linkBox.inputValue()
		const firstId = await owner.page
			.locator('tr[data-invite][data-state=pending]')
			.first()
			.getAttribute('data-invite')
		expect(link.startsWith(`${h.server.url}/#/register?invite=`)).toBe(true)

		// The invitee opens the link in their own browser and joins the company.
		const member = await h.open({ size: SIZE })
		const memberEmail = h.email('member')
		// A name that is markup: shown as the characters it is.
		await register(member.page, h.server.url, memberEmail, ['<b>Grace</b>', 'Hopper'], link)
		await logIn(member.page, memberEmail)
		expect(await member.page.locator('a[data-nav=invites], a[data-nav=members]').count()).toBe(0)

		// A second invite, revoked.
		await owner.page.fill('form[name=create-invite] input[name=email]', h.email('later'))
		await owner.page.click('form[name=create-invite] button')
		// Listed again after the creation: the first invite, used, is no longer pending.
		await owner.page.waitForSelector(`tr[data-invite="${firstId}"]:not([data-state=pending])`)
		const pending = owner.page.locator('tr[data-invite][data-state=pending]')
		expect(await pending.count()).toBe(1)
		const id = await pending.first().getAttribute('data-invite')
		expect(id).not.toBe(firstId)
		await owner.page.click(`button[data-revoke="${id}"]`)
		await owner.page.waitForSelector(`tr[data-invite="${id}"][data-state=revoked]`)

		await owner.page.click('a[data-nav=members]')
		const row = owner.page.locator('tr[data-member]', { hasText: memberEmail })
		await row.waitFor()
		expect(await row.locator('td').nth(1).textContent()).toBe('<b>Grace</b> Hopper')
		expect(await owner.page.locator('tr[data-member] b').count()).toBe(0)
		const memberId = await row.getAttribute('data-member')
		expect(await owner.page.inputValue(`select[data-status-of="${memberId}"]`)).toBe('active')
		await owner.page.selectOption(`select[data-status-of="${memberId}"]`, 'on_leave')
		await owner.page.waitForSelector('[data-page=members] .status:text("On Leave")')
		// On leave, the member is refused everywhere: their own page's requests included.
		const refused = await member.page.evaluate(async () => {
			const res = await fetch('/accounts/me/')
			return { status: res.status, body: await res.json() }
		})
		expect(refused).toEqual({
			status: 403,
			body: { detail: 'Permission denied', code: 'status_not_allowed' },
		})
		await member.finish()
		await owner.finish()
	}, 30_000)
})

describe('web console: family B', () => {
	let pair: Pair
	beforeAll(async () => {
		pair = await startPair()
	}, SLOW)
	afterAll(() => pair?.stop(), SLOW)

	it('offers the main server’s login form when api-accounts is loaded, and logs in and out through it', async () => {
		const address = h.email('edge')
		const registered = await fetch(`${pair.main.url}/accounts/register/`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ email: address, password: PASSWORD, first_name: 'Edgar', last_name: 'Edge' }),
		})
		expect(registered.status).toBe(201)
		const session = await h.open({ size: SIZE, origin: pair.edge.url })
		const page = session.page
		await page.goto(`${pair.edge.url}/`)
		await page.waitForSelector('form[name=login-b]')
		expect(await page.locator('form[name=login-a]').count()).toBe(1)
		// An account of the main server is not one of this server's family A.
		await page.fill('form[name=login-a] input[name=email]', address)
		await page.fill('form[name=login-a] input[name=password]', PASSWORD)
		await page.click('form[name=login-a] button')
		await page.waitForSelector('form[name=login-a] .status.error')
		await page.fill('form[name=login-b] input[name=email]', address)
		await page.fill('form[name=login-b] input[name=password]', PASSWORD)
		await page.click('form[name=login-b] button')
		await page.waitForSelector('[data-page=userbots]')
		expect(await page.textContent('[data-me]')).toBe(address)
		await page.click('button[data-action=logout]')
		await page.waitForSelector('[data-page=login]')
		expect(await page.evaluate(async () => (await fetch('/accounts/me/')).status)).toBe(401)
		await session.finish()
	}, 30_000)
})
