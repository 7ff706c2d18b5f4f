import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { Bot as GrammyBot, InputFile as GrammyFile } from 'grammy'
import { Bot as NtbaBot, InputFile as NtbaFile } from 'node-telegram-bot-api'
import type { MessagingFixture, WsClient } from '../../helpers-ws'
import { ALICE, aliceHistory, BOB, createBotFixture, pngBytes, post } from './support'

/**
 * Three Bot API libraries, unchanged, pointed at the server (docs/bot-api.md#methods): telegraf
 * (`telegram.apiRoot`, run in Node: telegraf-bot.mjs), node-telegram-bot-api 2 (`apiRoot`) and
 * grammY (`client.apiRoot`). Each is
 * an echo bot by long polling (Alice writes to Bob, the token's userbot, and reads the echo in her
 * history), sends a photo as a multipart upload that Alice receives as a photo, and reads it back
 * with getFile and the download route. Every bot is stopped, its last long poll ended, before its
 * test ends. Nothing waits on a clock: each step waits for the one before it.
 */
let f: MessagingFixture
let alice: number
let aliceWs: WsClient
let token: string

beforeAll(async () => {
	;({ f, token, alice, aliceWs } = await createBotFixture({ alice: true }))
	// Bob writes first: Alice's TDLib then knows their private chat, and can write back.
	const hello = await post(f, token, 'sendMessage', { chat_id: ALICE, text: 'hello Alice' })
	expect(hello.status).toBe(200)
})
afterAll(() => f.stop())

async function aliceWrites(text: string) {
	const sent = await aliceWs.command({ action: 'send_message', userbot_id: alice, chat_id: BOB, text })
	expect(sent.payload.type).toBe('send_message')
}

const history = (limit = 20) => aliceHistory(aliceWs, alice, limit)

/** The text messages of Alice's chat with Bob. */
const texts = async () =>
	(await history()).map((m) => (m.content as { text?: { text?: string } }).text?.text ?? '')

/** A promise and the function that settles it: a handler says "heard" once it has answered. */
function signal() {
	let done!: () => void
	const promise = new Promise<void>((resolve) => {
		done = resolve
	})
	return { promise, done }
}

/** What the download route answers for getFile's file_path. */
async function downloaded(filePath: string | undefined): Promise<Uint8Array> {
	const res = await fetch(`${f.t.url}/file/bot${token}/${filePath}`)
	expect(res.status).toBe(200)
	return new Uint8Array(await res.arrayBuffer())
}

/** telegraf in Node (telegraf-bot.mjs says why), driven line by line; `exited` once it is done. */
function telegraf(mode: 'echo' | 'photo', hex = '') {
	const script = join(import.meta.dir, 'telegraf-bot.mjs')
	const proc = Bun.spawn(['node', script, f.t.url, token, mode, String(ALICE), hex], {
		stdin: 'pipe',
		stdout: 'pipe',
		stderr: 'pipe',
	})
	const reader = proc.stdout.getReader()
	const decoder = new TextDecoder()
	let pending = ''
	/** The next event the bot reports; its failure or its exit without one fails the test. */
	const next = async (): Promise<Record<string, unknown>> => {
		for (;;) {
			const at = pending.indexOf('\n')
			if (at >= 0) {
				const line = pending.slice(0, at)
				pending = pending.slice(at + 1)
				const event = JSON.parse(line) as Record<string, unknown>
				if (event.event === 'error') throw new Error(`telegraf: ${event.message}`)
				return event
			}
			const { value, done } = await reader.read()
			if (done) throw new Error(`telegraf exited: ${await new Response(proc.stderr).text()}`)
			pending += decoder.decode(value, { stream: true })
		}
	}
	const send = (line: string) => {
		proc.stdin.write(`${line}\n`)
		proc.stdin.flush()
	}
	return { next, send, exited: proc.exited, kill: () => proc.kill() }
}

describe('telegraf', () => {
	it('an echo bot by long polling (bot.launch) answers what Alice writes, and stops', async () => {
		const bot = telegraf('echo')
		try {
			expect(await bot.next()).toEqual({ event: 'started' })
			await aliceWrites('hi telegraf')
			let heard = await bot.next()
			// Earlier messages of Alice's may come first: the bot answers each in turn.
			while (heard.text !== 'hi telegraf') heard = await bot.next()
			bot.send('STOP')
			expect(await bot.next()).toEqual({ event: 'stopped' })
			expect(await bot.exited).toBe(0)
		} finally {
			bot.kill()
		}
		expect(await texts()).toContain('echo: hi telegraf')
	})

	it('sends a photo as a multipart upload; getFileLink and its download give the bytes back', async () => {
		const bytes = pngBytes('telegraf')
		const bot = telegraf('photo', Buffer.from(bytes).toString('hex'))
		try {
			const got = await bot.next()
			expect(got).toMatchObject({
				event: 'photo',
				sent: { chat: { id: ALICE }, caption: 'from telegraf', photo: [{ file_size: bytes.length }] },
				tokenPath: true,
				status: 200,
				back: Buffer.from(bytes).toString('hex'),
			})
			expect(await bot.exited).toBe(0)
		} finally {
			bot.kill()
		}
		const [last] = await history(1)
		expect(last?.content).toMatchObject({ _: 'messagePhoto', caption: { text: 'from telegraf' } })
	})
})

describe('node-telegram-bot-api', () => {
	it('an echo bot by long polling (bot.startPolling) answers what Alice writes', async () => {
		const bot = new NtbaBot(token, { apiRoot: f.t.url })
		const heard = signal()
		bot.on('message', async (ctx) => {
			const text = ctx.message?.text ?? ''
			await ctx.reply(`echo: ${text}`)
			if (text === 'hi ntba') heard.done()
		})
		const running = bot.startPolling(undefined, { timeout: 5 })
		await aliceWrites('hi ntba')
		await heard.promise
		bot.stop()
		await running
		expect(bot.isRunning()).toBe(false)
		expect(await texts()).toContain('echo: hi ntba')
	})

	it('sends a photo as a multipart upload; getFile and the download give the bytes back', async () => {
		const bot = new NtbaBot(token, { apiRoot: f.t.url })
		const bytes = pngBytes('ntba')
		const sent = await bot.api.sendPhoto({
			chat_id: ALICE,
			photo: new NtbaFile(bytes, { filename: 'cat.png', contentType: 'image/png' }),
			caption: 'from ntba',
		})
		expect(sent).toMatchObject({ chat: { id: ALICE }, caption: 'from ntba' })
		const [last] = await history(1)
		expect(last?.content).toMatchObject({ _: 'messagePhoto', caption: { text: 'from ntba' } })
		const file = await bot.api.getFile({ file_id: sent.photo?.[0]?.file_id ?? '' })
		expect(file.file_size).toBe(bytes.length)
		expect(await downloaded(file.file_path)).toEqual(bytes)
	})
})

describe('grammY', () => {
	it('sends a photo by InputFile (multipart); getFile and the download give the bytes back', async () => {
		const bot = new GrammyBot(token, { client: { apiRoot: f.t.url } })
		const bytes = pngBytes('grammY')
		const sent = await bot.api.sendPhoto(ALICE, new GrammyFile(bytes, 'cat.png'), { caption: 'from grammY' })
		expect(sent).toMatchObject({ chat: { id: ALICE }, caption: 'from grammY' })
		const [last] = await history(1)
		expect(last?.content).toMatchObject({ _: 'messagePhoto', caption: { text: 'from grammY' } })
		const file = await bot.api.getFile(sent.photo[0]?.file_id ?? '')
		expect(file).toMatchObject({ file_unique_id: sent.photo[0]?.file_unique_id, file_size: bytes.length })
		expect(await downloaded(file.file_path)).toEqual(bytes)
	})
})
