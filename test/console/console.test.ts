import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type { Page } from 'playwright-core'
import { emulatorRequest } from '../../src/emulator'
import { logIn, register, screenshot } from './browser'
import { addUserbotCard, type Session, SLOW, unexpected, useConsole } from './harness'

/**
 * The web console in a real browser (headless chromium): the server on the emulator with its real
 * supervisor child, the console served by it at `/`, cookies, CSRF and the WebSocket as a browser
 * does them.
 */
const h = useConsole()

/** Adds a userbot named `name` and logs it in to the emulator account `phone` (code: its DC digit ×5). */
async function addUserbot(page: Page, name: string, phone: string): Promise<number> {
	await page.goto(`${h.server.url}/#/userbots`)
	const id = await addUserbotCard(page, name)
	await page.waitForSelector(`li[data-userbot="${id}"][data-state=authorizationStateWaitPhoneNumber]`)
	await page.fill('form[name=phone] input[name=phone_number]', phone)
	await page.click('form[name=phone] button')
	await page.waitForSelector(`li[data-userbot="${id}"][data-state=authorizationStateWaitCode]`)
	await page.fill('form[name=code] input[name=code]', phone.charAt(5).repeat(5))
	await page.click('form[name=code] button')
	await page.waitForSelector(`li[data-userbot="${id}"][data-state=authorizationStateReady]`)
	return id
}

async function runCommand(page: Page, userbotId: number, command: string, fields: Record<string, string>) {
	await page.goto(`${h.server.url}/#/commands?userbot=${userbotId}`)
	await page.waitForSelector(`select[data-select=command] option[value=${command}]`, { state: 'attached' })
	await page.selectOption('select[data-select=userbot]', String(userbotId))
	await page.selectOption('select[data-select=command]', command)
	for (const [name, value] of Object.entries(fields)) await page.fill(`[data-field="${name}"]`, value)
	await page.click('button[data-action=send]')
	// The raw event sits folded under the readable answer: present, not shown.
	await page.waitForSelector('pre[data-result].ok, pre[data-result].error', { state: 'attached' })
	return {
		ok: await page.locator('pre[data-result].ok').count(),
		text: (await page.textContent('pre[data-result]')) ?? '',
	}
}

describe('web console', () => {
	let session: Session
	let page: Page
	const owner = h.email('owner')
	let bob = 0

	beforeAll(async () => {
		session = await h.open({ size: { width: 1100, height: 760 } })
		page = session.page
	}, SLOW)
	afterAll(() => session?.close(), SLOW)

	it('serves the page with a Content-Security-Policy and no inline script, beside the API', async () => {
		const res = await fetch(`${h.server.url}/`)
		expect(res.status).toBe(200)
		const csp = res.headers.get('content-security-policy') ?? ''
		expect(csp).toContain("script-src 'self'")
		expect(csp).not.toContain('unsafe-inline')
		const html = await res.text()
		expect(html).toContain('<script type="module" src="/console/app.js"></script>')
		expect(html).not.toMatch(/<script>|<script type="module">/)
		expect(res.headers.get('x-content-type-options')).toBe('nosniff')
		expect(res.headers.get('x-frame-options')).toBe('DENY')
		expect(res.headers.get('referrer-policy')).toBe('no-referrer')
		// The reset e-mail's link opens the same page.
		expect(await (await fetch(`${h.server.url}/reset-password`)).text()).toBe(html)
		expect((await fetch(`${h.server.url}/console/app.js`)).headers.get('content-type')).toContain(
			'javascript',
		)
		// The API keeps its paths and answers.
		expect((await fetch(`${h.server.url}/api/commands/`)).status).toBe(200)
		expect((await fetch(`${h.server.url}/accounts/me/`)).status).toBe(401)
	}, 30_000)

	it('registers, logs in, adds an emulator userbot and logs it in', async () => {
		await page.goto(`${h.server.url}/`)
		await page.waitForSelector('[data-page=login]')
		// Family B's form only where api-accounts is loaded (see accounts.test.ts).
		expect(await page.locator('form[name=login-b]').count()).toBe(0)
		await screenshot(page, 'login')
		await register(page, h.server.url, owner)
		await logIn(page, owner)
		expect(await page.textContent('[data-me]')).toBe(owner)
		bob = await addUserbot(page, 'Bob', '9996621234')
		await page.waitForSelector(`li[data-userbot="${bob}"]:has-text("9996621234")`)
		await page.waitForSelector('[data-connection]:text("connected")')
		await screenshot(page, 'userbots')
	}, 30_000)

	it('logs in a 2FA account with its password, a new account by its registration, and one by a QR code shown as an image', async () => {
		await page.goto(`${h.server.url}/#/userbots`)
		const id = await addUserbotCard(page, 'Carol')
		await page.fill('form[name=phone] input[name=phone_number]', '9996631111')
		await page.click('form[name=phone] button')
		await page.fill('form[name=code] input[name=code]', '33333')
		await page.click('form[name=code] button')
		await page.fill('form[name=password] input[name=password]', 'wrong one')
		await page.click('form[name=password] button')
		await page.waitForSelector('[data-login-panel] .status.error')
		// In words, with Telegram's code kept in small print.
		expect(await page.textContent('[data-login-panel] .status.error .sentence')).toBe(
			'That is not the two-step verification password of this account.',
		)
		expect(await page.textContent('[data-login-panel] .status.error [data-code]')).toBe(
			'PASSWORD_HASH_INVALID',
		)
		await page.fill('form[name=password] input[name=password]', 'secret-2fa')
		await page.click('form[name=password] button')
		await page.waitForSelector(`li[data-userbot="${id}"][data-state=authorizationStateReady]`)

		// A test number with no account yet: the registration step names the new account.
		const newId = await addUserbotCard(page, 'Newt')
		await page.fill('form[name=phone] input[name=phone_number]', '9996627777')
		await page.click('form[name=phone] button')
		await page.fill('form[name=code] input[name=code]', '22222')
		await page.click('form[name=code] button')
		await page.fill('form[name=registration] input[name=first_name]', 'Newt')
		await page.fill('form[name=registration] input[name=last_name]', 'Scamander')
		await page.click('form[name=registration] button')
		await page.waitForSelector(`li[data-userbot="${newId}"][data-state=authorizationStateReady]`)

		const qrId = await addUserbotCard(page, 'By QR')
		await page.waitForSelector('form[name=phone]')
		// The QR code is offered first, with a way back to the phone number, then requested.
		await page.click('button[data-action=qr-offer]')
		await page.click('button[data-action=back-to-phone]')
		await page.waitForSelector('form[name=phone]')
		await page.click('button[data-action=qr-offer]')
		await page.click('button[data-action=qr]')
		const qr = page.locator('img[data-qr]')
		await qr.waitFor()
		expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/)
		expect(await qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100)
		await page.waitForSelector(
			`li[data-userbot="${qrId}"][data-state=authorizationStateWaitOtherDeviceConfirmation]`,
		)
		await screenshot(page, 'qr')
		// Scanned on another device (the emulator confirms it as Dave's): the channel's push updates the page.
		const runtime = h.server.ctx.runtime
		if (!runtime) throw new Error('no runtime')
		await runtime.invoke(qrId, emulatorRequest({ _: 'emulatorConfirmQrCode', phone_number: '9996614444' }))
		await page.waitForSelector(`li[data-userbot="${qrId}"][data-state=authorizationStateReady]`)
		// The account's number is stored just after the push: the page reads the list again until it has it.
		await page.waitForSelector(`li[data-userbot="${qrId}"]:has-text("9996614444")`)
	}, 30_000)

	it('sends a message from a form made from the catalog, and shows the success event', async () => {
		await page.goto(`${h.server.url}/#/commands?userbot=${bob}`)
		// Defaults from the catalog's schema are filled in: get_chat_members' limit is 50.
		await page.waitForSelector('select[data-select=command] option[value=get_chat_members]', {
			state: 'attached',
		})
		await page.selectOption('select[data-select=command]', 'get_chat_members')
		expect(await page.inputValue('[data-field=limit]')).toBe('50')
		expect(await page.inputValue('[data-field=offset]')).toBe('0')
		const sent = await runCommand(page, bob, 'send_message', {
			chat_id: '-2001',
			text: 'Hello from the console',
		})
		expect(sent.ok).toBe(1)
		const payload = JSON.parse(sent.text) as {
			type: string
			userbot_id: number
			result: { content: unknown }
		}
		expect(payload.type).toBe('send_message')
		expect(payload.userbot_id).toBe(bob)
		expect(JSON.stringify(payload.result.content)).toContain('Hello from the console')
		// Readable first: the message's text as text, not as JSON.
		expect(await page.textContent('[data-readable]')).toContain('Hello from the console')
		expect(await page.locator('[data-readable] dl.result').count()).toBeGreaterThan(0)
		await page.locator('[data-readable]').scrollIntoViewIfNeeded()
		await screenshot(page, 'commands')
	}, 30_000)

	it('sends a bad command and shows its error in red, in the runner and in the live log', async () => {
		const bad = await runCommand(page, bob, 'send_message', { text: 'no chat' })
		expect(bad.ok).toBe(0)
		expect(JSON.parse(bad.text)).toMatchObject({ type: 'send_message_error', error: 'chat_id is required' })
		expect(await page.textContent('[data-readable] [data-error] .sentence')).toBe('Choose a chat first.')
		const color = await page.locator('pre[data-result]').evaluate((el) => getComputedStyle(el).color)
		expect(color).toBe('rgb(198, 40, 40)')
		await page.click('a[data-nav=log]')
		const errorLine = page.locator('ol[data-live-log] li.error', { hasText: 'chat_id is required' })
		await errorLine.waitFor()
		expect(await errorLine.locator('code').evaluate((el) => getComputedStyle(el).color)).toBe(
			'rgb(198, 40, 40)',
		)
		// The success event and the userbot's own live update of its message are in the log too.
		await page
			.locator('ol[data-live-log] li:not(.error)', { hasText: '"type":"send_message"' })
			.first()
			.waitFor()
		await screenshot(page, 'live-log')
	}, 30_000)

	it('shows what a server or an account wrote as text, never as HTML', async () => {
		const hostile = '<img src=x onerror=window.__pwned=1>'
		await runCommand(page, bob, 'send_message', { chat_id: '-2001', text: hostile })
		await page.click('a[data-nav=log]')
		await page.locator('ol[data-live-log] li', { hasText: hostile }).first().waitFor()
		expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined()
		expect(await page.locator('ol[data-live-log] img').count()).toBe(0)
	}, 30_000)

	it("shows each userbot's account status as a badge, changed live by the channel's push", async () => {
		await page.goto(`${h.server.url}/#/userbots`)
		const row = page.locator('li[data-userbot]', { hasText: 'Carol' })
		await row.waitFor()
		const id = Number(await row.getAttribute('data-userbot'))
		await page.waitForSelector(`li[data-userbot="${id}"][data-status=active]`)
		expect(await page.textContent(`li[data-userbot="${id}"] .badge`)).toBe('active')
		// Its session ended from another device of the account: the page is told, not asked.
		const runtime = h.server.ctx.runtime
		if (!runtime) throw new Error('no runtime')
		await runtime.invoke(id, emulatorRequest({ _: 'emulatorRevoke' })).catch(() => undefined)
		await page.waitForSelector(`li[data-userbot="${id}"][data-status=revoked]`)
		expect(await page.textContent(`li[data-userbot="${id}"] .badge`)).toBe('revoked')
		await screenshot(page, 'status')
	}, 30_000)

	it('logs out: the server closes the socket, and a new one is refused', async () => {
		await page.goto(`${h.server.url}/#/userbots`)
		await page.waitForSelector('[data-connection]:text("connected")')
		const other = await session.context.newPage()
		other.setDefaultTimeout(10_000)
		await other.goto(`${h.server.url}/#/log`)
		await other.waitForSelector('[data-connection]:text("connected")')
		await page.click('button[data-action=logout]')
		await page.waitForSelector('[data-page=login]')
		await page.waitForSelector('[data-connection]:text("closed (1008 credentials revoked)")')
		expect(await page.locator('[data-connection].error').count()).toBe(1)
		const attempt = await page.evaluate(
			() =>
				new Promise<{ opened: boolean; code: number }>((resolve) => {
					const ws = new WebSocket(`${location.origin.replace('http', 'ws')}/ws`)
					let opened = false
					ws.onopen = () => {
						opened = true
					}
					ws.onclose = (e) => resolve({ opened, code: e.code })
				}),
		)
		expect(attempt).toEqual({ opened: false, code: 1006 })
		expect(await page.evaluate(async () => (await fetch('/accounts/me/')).status)).toBe(401)
		// Another tab of the same session is told by its own socket, and goes back to log in.
		await other.waitForSelector('[data-page=login]')
		expect(await other.textContent('[data-connection]')).toBe('closed (1008 credentials revoked)')
		await other.close()
		expect(session.elsewhere).toEqual([])
		expect(unexpected(session.problems, true)).toEqual([])
	}, 30_000)
})
