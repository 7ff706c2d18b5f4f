import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type { Page } from 'playwright-core'
import { PASSWORD } from './browser'
import { addUserbotCard, checkPage, type Session, SIZES, SLOW, unexpected, useConsole } from './harness'

/**
 * The console walked as a new owner walks it, at a desktop size and a phone size: register, log in,
 * add a userbot and log it in (a wrong code first, said in words), open its chats and send a
 * message, rename it, restart it, log it out, delete it. On every page: no serious or critical
 * axe-core violation, nothing wider than the screen, and not one request to any host but the server
 * (each is recorded and refused).
 */
const h = useConsole()

for (const size of SIZES) {
	describe(`the console at ${size.width} × ${size.height}`, () => {
		let session: Session
		let page: Page
		const checked: string[] = []
		const address = `walk.${size.name}.${Date.now().toString(36)}@example.com`

		beforeAll(async () => {
			session = await h.open({ size, timeout: 15_000 })
			page = session.page
		}, SLOW)
		afterAll(() => session?.close(), SLOW)

		/** The checks every page passes, then its screenshot. */
		const check = async (name: string) => {
			await checkPage(page, name, `walk-${size.name}-${name}`)
			checked.push(name)
		}

		/** Follows a navigation link; on a phone, through the menu. */
		const go = async (nav: string) => {
			if (size.width < 700) {
				expect(await page.isVisible(`a[data-nav="${nav}"]`)).toBe(false)
				await page.click('button[data-action=menu]')
				expect(await page.getAttribute('button[data-action=menu]', 'aria-expanded')).toBe('true')
			}
			await page.click(`a[data-nav="${nav}"]`)
			await page.waitForSelector(`[data-page="${nav}"]`)
		}

		it('registers, then logs in with the e-mail already filled in', async () => {
			await page.goto(`${h.server.url}/#/register`)
			await page.waitForSelector('form[name=register]')
			await check('register')
			await page.fill('form[name=register] input[name=email]', address)
			await page.fill('form[name=register] input[name=password]', PASSWORD)
			await page.fill('form[name=register] input[name=first_name]', 'Ada')
			await page.fill('form[name=register] input[name=last_name]', 'Lovelace')
			await page.click('form[name=register] button')
			await page.waitForSelector('[data-page=login] [data-notice]')
			expect(await page.textContent('[data-notice]')).toContain('Account created')
			expect(await page.inputValue('form[name=login-a] input[name=email]')).toBe(address)
			await check('login')
			await page.fill('form[name=login-a] input[name=password]', 'not the password')
			await page.click('form[name=login-a] button')
			await page.waitForSelector('form[name=login-a] .status.error')
			expect(await page.textContent('form[name=login-a] .status.error .sentence')).toBe(
				'Wrong e-mail or password.',
			)
			await page.fill('form[name=login-a] input[name=password]', PASSWORD)
			await page.click('form[name=login-a] button')
			await page.waitForSelector('[data-page=userbots] [data-empty]')
			expect(await page.textContent('[data-empty]')).toContain('Add one below')
			await check('userbots-empty')
		}, 60_000)

		let id = 0
		it('adds a userbot and logs it in, a wrong code first, said in words', async () => {
			id = await addUserbotCard(page, 'Sales desk')
			await page.waitForSelector('form[name=phone]')
			// The emulator runs: its test numbers are offered.
			expect(await page.textContent('[data-test-numbers]')).toContain('9996621234')
			await check('log-in-phone')
			await page.fill('form[name=phone] input[name=phone_number]', '12345')
			await page.click('form[name=phone] button')
			await page.waitForSelector('[data-login-panel] .status.error')
			expect(await page.textContent('[data-login-panel] .status.error .sentence')).toContain(
				'international format',
			)
			await page.fill('form[name=phone] input[name=phone_number]', '9996621234')
			await page.click('form[name=phone] button')
			await page.waitForSelector('form[name=code]')
			// Where the code went, and how long it is (from the state's code_info).
			expect(await page.textContent('[data-code-sent]')).toContain('Telegram app')
			await page.waitForSelector('[data-code-length="5"]')
			expect(await page.getAttribute('form[name=code] input[name=code]', 'maxlength')).toBe('5')
			await page.fill('form[name=code] input[name=code]', '12345')
			await page.click('form[name=code] button')
			await page.waitForSelector('[data-login-panel] .status.error')
			expect(await page.textContent('[data-login-panel] .status.error .sentence')).toBe(
				'That code is not the one Telegram sent. Check it and type it again.',
			)
			expect(await page.textContent('[data-login-panel] .status.error [data-code]')).toBe(
				'PHONE_CODE_INVALID',
			)
			await check('log-in-wrong-code')
			await page.fill('form[name=code] input[name=code]', '22222')
			await page.click('form[name=code] button')
			await page.waitForSelector(`li[data-userbot="${id}"][data-state=authorizationStateReady]`)
			// The Telegram profile once logged in, and the state and health in words.
			await page.waitForSelector(`li[data-userbot="${id}"] [data-profile-name]`)
			expect(await page.textContent(`li[data-userbot="${id}"] [data-profile-name]`)).toBe('Bob Baker')
			expect(await page.textContent(`li[data-userbot="${id}"] [data-username]`)).toBe('@bob')
			expect(await page.textContent(`li[data-userbot="${id}"] [data-state-words]`)).toBe('logged in')
			await page.waitForSelector(`li[data-userbot="${id}"][data-status=active]`)
			await check('userbots-ready')
		}, 60_000)

		it('opens its chats, and sends a message to a chat picked from its list', async () => {
			await go('chat')
			await check('chat')
			await go('commands')
			await page.waitForSelector('select[data-select=command] option[value=send_message]', {
				state: 'attached',
			})
			await page.selectOption('select[data-select=userbot]', String(id))
			// The chat picker lists the account's chats by title (get_chats).
			await page.waitForSelector('datalist#chat-choices option[value="-2001"]', { state: 'attached' })
			await page.fill('[data-field=chat_id]', '-2001')
			await page.fill('[data-field=text]', 'Hello from the walk')
			await page.click('button[data-action=send]')
			await page.waitForSelector('pre[data-result].ok', { state: 'attached' })
			expect(await page.textContent('[data-readable]')).toContain('Hello from the walk')
			// The raw event is one click away.
			expect(await page.isVisible('pre[data-result]')).toBe(false)
			await page.click('details.raw summary')
			expect(await page.isVisible('pre[data-result]')).toBe(true)
			await check('commands')
			await go('log')
			await page.fill('[data-log-filter]', 'Hello from the walk')
			await page.locator('ol[data-live-log] li', { hasText: 'Hello from the walk' }).first().waitFor()
			await page.selectOption('[data-log-kind]', 'error')
			expect(await page.locator('ol[data-live-log] li').count()).toBe(0)
			await page.selectOption('[data-log-kind]', 'all')
			await check('live-log')
		}, 60_000)

		it('renames it, restarts it, logs it out after a confirmation, and sees it wait for a phone number', async () => {
			await go('userbots')
			const card = page.locator(`li[data-userbot="${id}"]`)
			const said = (words: string) =>
				page.locator('[data-page=userbots] .status', { hasText: words }).first().waitFor()
			await card.locator('button[data-action=rename]').click()
			await card.locator('input[data-rename-input]').fill('Support desk')
			await check('rename')
			await card.locator('button[data-action=save-name]').click()
			await said('Userbot renamed to “Support desk”.')
			await card.locator('text=Userbot “Support desk”').waitFor()
			await card.locator('button[data-action=restart]').click()
			await said('Userbot “Support desk” restarted.')
			expect(await card.getAttribute('data-state')).toBe('authorizationStateReady')
			await card.locator('button[data-action=logout]').click()
			await card.locator('button[data-action=confirm-logout]').waitFor()
			await check('logout-confirm')
			await card.locator('button[data-action=cancel-logout]').click()
			await card.locator('button[data-action=logout]').click()
			await card.locator('button[data-action=confirm-logout]').click()
			await page.waitForSelector(`li[data-userbot="${id}"][data-state=authorizationStateWaitPhoneNumber]`)
			await said('logged out of Telegram: it waits for a phone number.')
			expect(await card.locator('[data-state-words]').textContent()).toBe(
				'not logged in: waiting for a phone number',
			)
			// Logged out, the card offers a log-in again and no log-out.
			expect(await card.locator('button[data-action=logout]').count()).toBe(0)
			expect(await card.locator('button[data-select]').count()).toBe(1)
			await check('logged-out')
		}, 60_000)

		it('deletes it after a confirmation', async () => {
			await go('userbots')
			const card = page.locator(`li[data-userbot="${id}"]`)
			await card.locator('button[data-action=delete]').click()
			await card.locator('button[data-action=confirm-delete]').waitFor()
			await check('delete-confirm')
			await card.locator('button[data-action=cancel-delete]').click()
			await card.locator('button[data-action=delete]').click()
			await card.locator('button[data-action=confirm-delete]').click()
			await page.waitForSelector('[data-page=userbots] [data-empty]')
			expect(await page.textContent('[data-page=userbots] .status')).toContain('deleted')
			const answer = await page.evaluate(async (n) => (await fetch(`/api/userbots/${n}/`)).status, id)
			expect(answer).toBe(404)
		}, 60_000)

		it('asked nothing of any host but the server, and reported no error', () => {
			expect(checked.length).toBe(13)
			expect(session.elsewhere).toEqual([])
			expect(unexpected(session.problems)).toEqual([])
		})
	})
}
