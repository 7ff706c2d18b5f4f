// telegraf, unchanged, in Node (node test/plugins/bot-api/telegraf-bot.mjs API_ROOT TOKEN MODE CHAT_ID [HEX]).
//
// telegraf runs in its own runtime here: under Bun, Bun's `node-fetch` stands in for telegraf's and
// never ends telegraf's multipart stream. The bot reports on stdout, one JSON line an event, and
// obeys its stdin:
//   MODE echo    an echo bot by long polling (`bot.launch`): `started` once launched, `heard` with
//                each text it answered; the line STOP stops it (its last long poll ended), then
//                `stopped` and the process exits.
//   MODE photo   sends HEX's bytes as a photo (a multipart upload) to CHAT_ID, then reads them back
//                through `getFileLink`: `photo` with the message, whether the link is the token's
//                download path, and the bytes read (hex); then it exits.
import { createRequire } from 'node:module'
import { createInterface } from 'node:readline'

const require = createRequire(import.meta.url)
const { Telegraf, Input } = require('telegraf')
const { message } = require('telegraf/filters')

const [apiRoot, token, mode, chatId, hex] = process.argv.slice(2)
const say = (event) => process.stdout.write(`${JSON.stringify(event)}\n`)
const bot = new Telegraf(token, { telegram: { apiRoot } })

async function echo() {
	bot.on(message('text'), async (ctx) => {
		await ctx.reply(`echo: ${ctx.message.text}`)
		say({ event: 'heard', text: ctx.message.text })
	})
	const running = bot.launch(() => say({ event: 'started' }))
	for await (const line of createInterface({ input: process.stdin })) {
		if (line !== 'STOP') continue
		bot.stop('test over')
		await running
		say({ event: 'stopped' })
		return
	}
}

async function photo() {
	const bytes = Buffer.from(hex, 'hex')
	const sent = await bot.telegram.sendPhoto(Number(chatId), Input.fromBuffer(bytes, 'cat.png'), {
		caption: 'from telegraf',
	})
	const link = await bot.telegram.getFileLink(sent.photo[0].file_id)
	const res = await fetch(link)
	const back = Buffer.from(await res.arrayBuffer()).toString('hex')
	say({
		event: 'photo',
		sent,
		tokenPath: link.pathname.startsWith(`/file/bot${token}/`),
		status: res.status,
		back,
	})
}

try {
	await (mode === 'echo' ? echo() : photo())
	process.exit(0)
} catch (err) {
	say({ event: 'error', message: String(err?.message ?? err) })
	process.exit(1)
}
