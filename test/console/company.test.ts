import { describe, expect, it } from 'bun:test'
import type { Page } from 'playwright-core'
import { AUDIT_PAGE } from '../../src/console-ui/pages/company/limits'
import { goTo, register } from './browser'
import { checkBothSizes, PHONE, useConsole } from './harness'

/**
 * The owner's company pages in headless chromium: members (work status, permissions, removal),
 * invites, the audit log in words with paging, and the empty state of each (webhooks included),
 * every page at 1280 × 800 and 390 × 844 with no serious accessibility violation and nothing wider
 * than the phone.
 */
const h = useConsole({ PLUGINS: 'accounts,userbots,webhooks' })

const open = async (page: Page, nav: string) => {
	await goTo(page, nav)
	await page.waitForSelector(`[data-page="${nav}"]`)
}

/** The audit page's sentences, newest first. */
const sentences = (page: Page) => page.locator('[data-audit-sentence]').allTextContents()

describe('web console: the company pages', () => {
	it('shows an empty state that says what to do next on every company page of a new company', async () => {
		const session = await h.signedIn('empty')
		const page = session.page
		const expected: Record<string, string> = {
			members: 'Invites page',
			invites: 'Create one above',
			keys: 'Create one above',
			audit: 'appear here as they happen',
			webhooks: 'send it a test event',
		}
		for (const [nav, next] of Object.entries(expected)) {
			await open(page, nav)
			const empty = page.locator(`[data-empty="${nav}"]`)
			await empty.waitFor()
			expect(await empty.textContent()).toContain(next)
			await checkBothSizes(page, `[data-empty="${nav}"]`)
		}
		// The members page links to the invites page, and the link works from the keyboard.
		await open(page, 'members')
		await page.focus('[data-empty=members] a')
		await page.keyboard.press('Enter')
		await page.waitForSelector('[data-page=invites]')
		await session.finish({ sockets: true })
	}, 120_000)

	it('manages members and invites, and reads what happened in the audit log, in words, a page at a time', async () => {
		const owner = await h.signedIn('owner')

		// An invite, used by a new member.
		await open(owner.page, 'invites')
		await owner.page.click('form[name=create-invite] button')
		const link = await (await owner.page.waitForSelector('input[data-invite-link]')).inputValue()
		await owner.page.waitForSelector('[data-page=invites] .co-notice.ok:text("The invite is created.")')
		const member = await h.open({ size: PHONE })
		const memberEmail = h.email('grace')
		await register(member.page, h.server.url, memberEmail, ['Grace', 'Hopper'], link)
		await member.finish()
		// A second invite for one address, revoked.
		const later = h.email('later')
		await owner.page.fill('form[name=create-invite] input[name=email]', later)
		await owner.page.click('form[name=create-invite] button')
		// The new invite's own row: the used one may still read pending until the list is drawn again.
		const pending = owner.page.locator('tr[data-invite][data-state=pending]', { hasText: later })
		await pending.waitFor()
		const revoked = await pending.getAttribute('data-invite')
		await owner.page.click(`button[data-revoke="${revoked}"]`)
		await owner.page.waitForSelector(`tr[data-invite="${revoked}"][data-state=revoked]`)
		expect(await owner.page.textContent(`tr[data-invite="${revoked}"]`)).toContain('Revoked')
		expect(await owner.page.textContent('[data-page=invites] > section > .co-notice')).toBe(
			'The invite is revoked: its link no longer works.',
		)
		await checkBothSizes(owner.page, 'tr[data-invite]', 'invites')

		// The member: a permission granted from the keyboard, a work status, the role in words.
		await open(owner.page, 'members')
		const row = owner.page.locator('tr[data-member]', { hasText: memberEmail })
		await row.waitFor()
		const memberId = await row.getAttribute('data-member')
		expect(await row.textContent()).toContain('Member')
		expect(await owner.page.textContent('tr[data-member]:first-child')).toContain('Owner (you)')
		expect(await owner.page.$('[data-empty=members]')).toBeNull()
		await row.locator('summary').focus()
		await owner.page.keyboard.press('Enter')
		const grant = row.locator('input[data-grant="sessions.terminate"]')
		await grant.waitFor()
		await grant.focus()
		await owner.page.keyboard.press('Space')
		await owner.page.waitForSelector(
			'[data-page=members] .co-notice.ok:text("Grace Hopper may now end the Telegram account")',
		)
		await owner.page.selectOption(`select[data-status-of="${memberId}"]`, 'on_leave')
		await owner.page.waitForSelector('[data-page=members] .co-notice.ok:text("is now On Leave")')
		await checkBothSizes(owner.page, 'tr[data-member]', 'members')

		// The audit log says it all in words, newest first.
		await open(owner.page, 'audit')
		await owner.page.waitForSelector('[data-audit-entry]')
		expect(await sentences(owner.page)).toEqual([
			'You set the work status of Grace Hopper to “On Leave”.',
			"You allowed Grace Hopper to end the Telegram account's other sessions (devices).",
			'You revoked an invite.',
			'You created an invite.',
			'Grace Hopper joined the company with an invite.',
			'You created an invite.',
		])
		await checkBothSizes(owner.page, '[data-audit-entry]', 'audit')

		// Removed after a confirmation; a removal that another tab did first is said in words.
		await open(owner.page, 'members')
		await owner.page.click(`[data-remove-member="${memberId}"]`)
		await owner.page.click('[data-action=cancel]')
		await owner.page.click(`[data-remove-member="${memberId}"]`)
		await owner.page.click(`[data-confirm-remove="${memberId}"]`)
		await owner.page.waitForSelector('[data-page=members] .co-notice.ok:text("is no longer a member")')
		await owner.page.waitForSelector('[data-empty=members]')
		expect(await owner.page.$(`tr[data-member="${memberId}"]`)).toBeNull()

		// More lines than a page: older ones a click away, and back.
		const made = await owner.page.evaluate(async (count) => {
			const codes: number[] = []
			for (let i = 0; i < count; i++) {
				const res = await fetch('/accounts/invites/', {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: '{}',
				})
				codes.push(res.status)
			}
			return codes
		}, AUDIT_PAGE)
		expect(made.every((code) => code === 201)).toBe(true)
		await open(owner.page, 'audit')
		await owner.page.waitForSelector('[data-audit-entry]')
		expect(await owner.page.locator('[data-audit-entry]').count()).toBe(AUDIT_PAGE)
		expect(await owner.page.textContent('[data-audit-page]')).toBe(`Entries 1–${AUDIT_PAGE}, newest first`)
		expect(await owner.page.isDisabled('[data-action=newer]')).toBe(true)
		await owner.page.click('[data-action=older]')
		await owner.page.waitForSelector(`[data-audit-page]:text("Entries ${AUDIT_PAGE + 1}–")`)
		const older = await sentences(owner.page)
		expect(older[0]).toBe(`You removed a former member (#${memberId}) from the company.`)
		expect(older.at(-1)).toBe('You created an invite.')
		// Six lines above, the removal, and a page of invites: the removal and the six are older.
		expect(older).toHaveLength(7)
		expect(await owner.page.isDisabled('[data-action=older]')).toBe(true)
		await owner.page.click('[data-action=newer]')
		await owner.page.waitForSelector(`[data-audit-page]:text("Entries 1–${AUDIT_PAGE},")`)
		await owner.finish({ sockets: true })
	}, 120_000)

	it('says in words when what it acts on is gone already', async () => {
		const owner = await h.signedIn('twice', { size: PHONE })
		await open(owner.page, 'invites')
		await owner.page.click('form[name=create-invite] button')
		await owner.page.waitForSelector('input[data-invite-link]')
		const link = await owner.page.inputValue('input[data-invite-link]')
		const member = await h.open({ size: PHONE })
		const memberEmail = h.email('ada')
		await register(member.page, h.server.url, memberEmail, ['Ada', 'King'], link)
		await member.finish()
		await open(owner.page, 'members')
		const row = owner.page.locator('tr[data-member]', { hasText: memberEmail })
		await row.waitFor()
		const id = await row.getAttribute('data-member')
		await owner.page.click(`[data-remove-member="${id}"]`)
		// Another tab removes the member first.
		const status = await owner.page.evaluate(
			async (memberId) => (await fetch(`/accounts/members/${memberId}/`, { method: 'DELETE' })).status,
			id,
		)
		expect(status).toBe(204)
		await owner.page.click(`[data-confirm-remove="${id}"]`)
		const error = owner.page.locator('[data-page=members] .co-notice.error')
		await error.waitFor()
		expect(await error.textContent()).toBe('This is gone already. The list has been refreshed.')
		await owner.page.waitForSelector('[data-empty=members]')
		await owner.finish({ sockets: true })
	}, 60_000)
})
