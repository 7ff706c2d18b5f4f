import { describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { userbot } from '../../db/schema'
import { connectWs } from '../helpers-ws'
import { insertUserbot } from '../plugins/webhooks/receiver'
import { goTo } from './browser'
import { checkBothSizes, PHONE, useConsole } from './harness'

/**
 * The console's API keys page in headless chromium (docs/operator.md#api-keys): an owner creates a
 * key scoped to one userbot, is shown it once, and revokes it; the test uses the key against the
 * server the way a script would, before and after.
 */
const h = useConsole()

const withKey = (key: string, path: string) =>
	fetch(`${h.server.url}${path}`, { headers: { 'x-api-key': key } })

describe('web console: API keys', () => {
	it('creates a key for one userbot, shows it once, and revokes it: REST refuses it and its socket closes', async () => {
		const session = await h.signedIn('keys')
		const page = session.page
		const me = (await page.evaluate(() => fetch('/accounts/me/').then((r) => r.json()))) as {
			company: { id: number }
		}
		const sales = await insertUserbot(h.server, me.company.id)
		const other = await insertUserbot(h.server, me.company.id)
		await h.server.ctx.db.update(userbot).set({ name: 'Sales desk' }).where(eq(userbot.id, sales))

		// Before any key: the empty state says what to do.
		await goTo(page, 'keys')
		await page.waitForSelector('[data-empty=keys]')
		expect(await page.textContent('[data-empty=keys]')).toContain('Create one')
		await checkBothSizes(page, '[data-empty=keys]')

		// One userbot, the messages group, picked by their names.
		await page.fill('form[name=create-key] input[name=name]', 'crm')
		await page.check('input[name="userbots-mode"][value=some]')
		await page.check(`input[name=userbots][value="${sales}"]`)
		await page.check('input[name="groups-mode"][value=some]')
		await page.getByLabel('Messages (send, edit, delete, forward)').check()
		await page.click('form[name=create-key] button:text("Create the key")')
		const key = await (await page.waitForSelector('[data-key-secret]')).inputValue()
		expect(key).toMatch(/^ubg_[A-Za-z0-9_-]{43}$/)
		expect(await page.textContent('[data-created-key]')).toContain('will not be shown again')
		const row = page.locator('tr[data-key]', { hasText: 'crm' })
		await row.waitFor()
		const scopes = await row.locator('[data-scopes]').textContent()
		expect(scopes).toContain('Sales desk')
		expect(scopes).toContain('only messages')
		expect(await row.locator('[data-last-used]').textContent()).toBe('never')
		await checkBothSizes(page, '[data-key-secret]', 'keys')

		// Shown once: a reload lists the key without it.
		await page.reload()
		await page.waitForSelector('tr[data-key]')
		expect(await page.$('[data-key-secret]')).toBeNull()
		expect(await page.content()).not.toContain(key)

		// The key works as a script uses it, for its userbot only.
		expect((await withKey(key, `/api/userbots/${sales}/`)).status).toBe(200)
		expect((await withKey(key, `/api/userbots/${other}/`)).status).toBe(404)
		const socket = await connectWs(h.server.url, { bearer: key })
		const sub = await socket.command({ action: 'subscribe', userbot_id: other })
		expect(sub.payload.error).toBe('userbot not found')
		// Its use is shown on the next load.
		await page.reload()
		await page.waitForSelector('tr[data-key] [data-last-used] time')

		// Revoked after a confirmation, from the keyboard.
		const id = await page.getAttribute('tr[data-key]', 'data-key')
		await page.focus(`[data-revoke-key="${id}"]`)
		await page.keyboard.press('Enter')
		const confirm = page.locator(`[data-confirm-revoke="${id}"]`)
		await confirm.waitFor()
		expect(await confirm.evaluate((el) => el === document.activeElement)).toBe(true)
		expect((await withKey(key, `/api/userbots/${sales}/`)).status).toBe(200)
		await page.keyboard.press('Enter')
		await page.waitForSelector('[data-page=keys] .co-notice.ok:text("is revoked")')
		await page.waitForSelector('[data-empty=keys]')
		expect(await socket.closed).toEqual({ code: 1008, reason: 'credentials revoked' })
		expect((await withKey(key, `/api/userbots/${sales}/`)).status).toBe(401)
		await session.finish({ sockets: true })
	}, 90_000)

	it('says in words why a key was not made, and keeps the form as it was', async () => {
		const session = await h.signedIn('nokey', { size: PHONE })
		const page = session.page
		await goTo(page, 'keys')
		await page.waitForSelector('form[name=create-key]')
		// Some groups chosen, none ticked: refused before any request.
		await page.fill('form[name=create-key] input[name=name]', 'half')
		await page.check('input[name="groups-mode"][value=some]')
		await page.click('form[name=create-key] button:text("Create the key")')
		await page.waitForSelector('[data-page=keys] .co-notice.error:text("Tick at least one group")')
		// A day in the past: the server's sentence, after the field's name, never a code.
		await page.check('input[name="groups-mode"][value=all]')
		await page.fill('form[name=create-key] input[name=expires]', '2001-01-01')
		await page.click('form[name=create-key] button:text("Create the key")')
		const error = page.locator('[data-page=keys] .co-notice.error')
		await error.filter({ hasText: 'Expiry' }).waitFor()
		expect(await error.textContent()).toBe('Expiry: The expiry must be in the future.')
		expect(await page.inputValue('form[name=create-key] input[name=name]')).toBe('half')
		expect(await page.$('tr[data-key]')).toBeNull()
		await session.finish()
	}, 60_000)
})
