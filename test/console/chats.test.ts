import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type { Page } from 'playwright-core'
import { SEED_CHATS } from '../../src/emulator/seed'
import { LOUNGE_EXTRA_MESSAGES, SEED_PHOTO_PNG } from '../../src/emulator/seed/read-side'
import {
	createUserbot,
	logInOverRest,
	type Member,
	openSocket,
	type Socket,
	signUp,
} from '../plugins/userbots/support'
import { logIn } from './browser'
import { checkPage, type Session, SIZES, SLOW, unexpected, useConsole } from './harness'

/**
 * The console's chat view over the real server (emulator): Alice's userbot reads and writes as in a
 * messenger, and Bob's userbot (same company) writes to her from the command channel.
 */
const ALICE = { phone: '9996611111', code: '11111' }
const BOB = { phone: '9996621234', code: '22222' }
const LOUNGE = SEED_CHATS.supergroup
/** Alice and Bob's private chat, as Alice's account sees it: Bob's user id. */
const WITH_BOB = 1002

const h = useConsole()
let owner: Member
let ws: Socket
let alice = 0
let bob = 0

beforeAll(async () => {
	owner = await signUp(h.server.url)
	alice = await createUserbot(owner)
	await logInOverRest(owner, alice, ALICE)
	bob = await createUserbot(owner)
	await logInOverRest(owner, bob, BOB)
	ws = await openSocket(h.server.url, owner.access)
}, SLOW)
afterAll(() => ws?.close())

const messageIds = (page: Page) =>
	page.$$eval('[data-messages] > li', (lis) => lis.map((li) => Number(li.getAttribute('data-message'))))

/** Scrolls the history to its top until the chat's first message is shown, page by page. */
async function scrollToStart(page: Page): Promise<void> {
	for (let i = 0; i < 20; i++) {
		if (await page.locator('[data-history-start]:not([hidden])').count()) return
		const shown = (await messageIds(page)).length
		await page.locator('[data-history]').evaluate((el) => {
			el.scrollTop = 0
		})
		// A page was added, or the start was reached: what the scroll asked for has come.
		await page.waitForFunction(
			(before) =>
				document.querySelectorAll('[data-messages] > li').length > before ||
				!!document.querySelector('[data-history-start]:not([hidden])'),
			shown,
		)
	}
	throw new Error('the start of the chat never came')
}

async function openChat(page: Page, chatId: number) {
	await page.click(`button[data-chat="${chatId}"]`)
	await page.waitForSelector(`[data-open-chat="${chatId}"] [data-messages] > li`)
	await page.waitForSelector('[data-history]:not([data-loading])')
}

for (const size of SIZES) {
	describe(`the chat view at ${size.width}×${size.height}`, () => {
		let session: Session
		let page: Page
		/** The screenshots' names: the chat pictures were named before the phone size had a name. */
		const shot = (name: string) => (size.name === 'wide' ? name : `${name}-narrow`)

		beforeAll(async () => {
			session = await h.open({ size })
			page = session.page
			await page.goto(`${h.server.url}/#/login`)
			await logIn(page, owner.email)
		}, SLOW)
		afterAll(() => session?.close(), SLOW)

		it('lists the seeded chats with titles, last messages and unread counts', async () => {
			await page.goto(`${h.server.url}/#/chat?userbot=${alice}`)
			await page.waitForSelector(`[data-subscribed="${alice}"]`, { state: 'attached' })
			await page.waitForSelector(`button[data-chat="${LOUNGE}"]`)
			const titles = await page.$$eval('button[data-chat] [data-title]', (els) =>
				els.map((e) => e.textContent),
			)
			for (const title of ['Team Chat', 'Emulator Lounge', 'Emulator News', 'Emulator Forum', 'Bob Baker']) {
				expect(titles).toContain(title)
			}
			expect(await page.textContent(`button[data-chat="${LOUNGE}"] .ch-last`)).toBe(
				`Lounge chatter #${LOUNGE_EXTRA_MESSAGES}`,
			)
			const { chats } = (await ws.command('get_chats', alice, { limit: 50 })).result as unknown as {
				chats: Array<{ id: number; unread_count: number }>
			}
			// The seed leaves Alice's incoming messages unread.
			const unread = chats.filter((c) => c.unread_count > 0)
			expect(unread.length).toBeGreaterThan(0)
			for (const chat of unread) {
				expect(await page.getAttribute(`button[data-chat="${chat.id}"] [data-unread]`, 'data-unread')).toBe(
					String(chat.unread_count),
				)
			}
			await checkPage(page, 'chat list', shot('chat-list'))
		}, 30_000)

		it('opens a chat with its history and scrolls up to its first message, no gap and no repeat', async () => {
			await openChat(page, LOUNGE)
			expect(await page.textContent('[data-chat-title]')).toBe('Emulator Lounge')
			if (size.name === 'phone') expect(await page.isVisible('[data-chats]')).toBe(false)
			await scrollToStart(page)
			const ids = await messageIds(page)
			const { messages } = (await ws.command('get_chat_history', alice, { chat_id: LOUNGE, limit: 100 }))
				.result as unknown as { messages: Array<{ id: number }> }
			// Every message of the chat, once, oldest first (the chat has fewer than 100).
			expect(ids).toEqual(messages.map((m) => m.id).reverse())
			expect(ids.length).toBe(LOUNGE_EXTRA_MESSAGES + 3)
			expect(await page.textContent('[data-messages] > li:first-child .ch-text')).toBe('This is the lounge')
			// Names, not ids: the lounge's first message is Bob's.
			await page.waitForSelector('[data-messages] > li:first-child .ch-sender:text("Bob Baker")')
		}, 30_000)

		it('shows a photo through the files route, replies to a message, and a message of the other account arrives live', async () => {
			if (size.name === 'phone') {
				await page.click('button[data-action=back]')
				await page.waitForSelector('[data-chats]')
			}
			await openChat(page, WITH_BOB)
			const photo = page.locator('img[data-photo]').first()
			await photo.waitFor()
			await page.waitForFunction(() => {
				const img = document.querySelector<HTMLImageElement>('img[data-photo]')
				return !!img && img.complete && img.naturalWidth > 0
			})
			const src = (await photo.getAttribute('src')) ?? ''
			expect(src).toMatch(new RegExp(`^/api/userbots/${alice}/files/\\d+$`))
			const bytes = await page.evaluate(
				async (url) => [...new Uint8Array(await (await fetch(url)).arrayBuffer())],
				src,
			)
			expect(Buffer.from(bytes)).toEqual(SEED_PHOTO_PNG)

			// Reply to Bob's "How are you?".
			const asked = page.locator('[data-messages] > li:not(.ch-out)', { hasText: 'How are you?' })
			const askedId = Number(await asked.getAttribute('data-message'))
			await asked.locator('button[data-action=reply]').click()
			await page.waitForSelector('[data-replying]:not([hidden]):has-text("How are you?")')
			const answer = `Fine, thanks (${size.name})`
			await page.fill('form[name=compose] textarea[name=text]', answer)
			await page.click('button[data-action=send-message]')
			const mine = page.locator('[data-messages] > li[data-sent]', { hasText: answer })
			await mine.waitFor()
			expect(await mine.getAttribute('data-reply-to')).toBe(String(askedId))
			expect(await mine.locator('blockquote').textContent()).toBe('How are you?')
			const { messages } = (await ws.command('get_chat_history', alice, { chat_id: WITH_BOB, limit: 1 }))
				.result as unknown as { messages: Array<{ id: number; reply_to: { message_id: number } }> }
			expect(messages[0]?.reply_to.message_id).toBe(askedId)

			// Bob writes: the message arrives while the chat is open, with his name.
			const live = `Live from Bob (${size.name})`
			const sent = await ws.command('send_message', bob, { chat_id: 1001, text: live })
			expect(sent.type).toBe('send_message')
			const arrived = page.locator('[data-messages] > li', { hasText: live })
			await arrived.waitFor()
			await arrived.locator('.ch-sender:text("Bob Baker")').waitFor()
			await checkPage(page, 'chat', shot('chat'))
		}, 30_000)

		it('sends a message that appears once, and a photo attached from the disk', async () => {
			const text = `Just once (${size.name})`
			await page.fill('form[name=compose] textarea[name=text]', text)
			await page.press('form[name=compose] textarea[name=text]', 'Enter')
			const sent = page.locator('[data-messages] > li[data-sent]', { hasText: text })
			await sent.waitFor()
			// TDLib's final id: the one the account's history has.
			const { messages } = (await ws.command('get_chat_history', alice, { chat_id: WITH_BOB, limit: 1 }))
				.result as unknown as { messages: Array<{ id: number }> }
			await page.waitForSelector(`[data-messages] > li[data-message="${messages[0]?.id}"]`)
			// The reply to the send and the live updates of the same message have all come by now.
			await ws.command('get_me', alice)
			expect(await page.locator('[data-messages] > li', { hasText: text }).count()).toBe(1)
			expect(await page.locator('form[name=compose] textarea[name=text]').inputValue()).toBe('')

			const before = await page.locator('img[data-photo]').count()
			await page.setInputFiles('form[name=compose] input[name=file]', {
				name: 'dot.png',
				mimeType: 'image/png',
				buffer: SEED_PHOTO_PNG,
			})
			await page.fill('form[name=compose] textarea[name=text]', `A photo (${size.name})`)
			await page.click('button[data-action=send-message]')
			const mine = page.locator('[data-messages] > li.ch-out[data-sent]', {
				hasText: `A photo (${size.name})`,
			})
			await mine.waitFor()
			await page.waitForFunction(
				(n) =>
					[...document.querySelectorAll<HTMLImageElement>('img[data-photo]')].filter(
						(i) => i.naturalWidth > 0,
					).length > n,
				before,
			)
			expect(await mine.locator('img[data-photo]').count()).toBe(1)
			expect(session.elsewhere).toEqual([])
			expect(unexpected(session.problems)).toEqual([])
		}, 30_000)
	})
}
