import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { MessagingFixture, WsClient } from '../../helpers-ws'
import { ALICE, aliceHistory, BOB, createBotFixture, json, madeToken, pngBytes, request } from './support'

/**
 * The Bot API face's media and files (docs/bot-api.md#files) over the emulator, by raw requests:
 * multipart uploads and their limits, each send method onto `send_message`'s media, sendMediaGroup
 * with `attach://`, getFile and the download route. Bob (1002) is the token's userbot; Alice (1001),
 * of another company, receives.
 */
let f: MessagingFixture
let alice: number
let aliceWs: WsClient
let token: string
const lines: string[] = []

beforeAll(async () => {
	// Files over 4 KiB are not served here (FILE_MAX_BYTES), to see the download refuse one.
	;({ f, token, alice, aliceWs } = await createBotFixture({
		env: { FILE_MAX_BYTES: '4096' },
		opts: { logLines: lines },
		alice: true,
	}))
})
afterAll(() => f.stop())

const made = (access: string, userbotId: number, scopes: Record<string, unknown> = {}) =>
	madeToken(f, access, userbotId, scopes)
const call = (method: string, init: RequestInit = {}, tok = token) => request(f, tok, method, init)
const form = (fields: Record<string, string | Blob>, names: Record<string, string> = {}): RequestInit => {
	const data = new FormData()
	for (const [k, v] of Object.entries(fields)) {
		if (typeof v === 'string') data.append(k, v)
		else data.append(k, v, names[k] ?? `${k}.bin`)
	}
	return { method: 'POST', body: data }
}

const bytes = pngBytes

const uploadsOf = (userbotId: number) => {
	try {
		return readdirSync(join(f.t.ctx.config.dataDir, 'tdlib', String(userbotId), 'uploads'))
	} catch {
		return []
	}
}

const history = (limit = 10) => aliceHistory(aliceWs, alice, limit)

type Sent = {
	message_id: number
	photo?: Array<{ file_id: string; file_unique_id: string; file_size?: number }>
	caption?: string
}

describe('multipart uploads', () => {
	it('sendPhoto with a file part: a photo in the other account’s history, the upload removed once sent', async () => {
		const photo = bytes('multipart photo')
		const { status, body } = await call(
			'sendPhoto',
			form({ chat_id: String(ALICE), caption: 'a photo', photo: new Blob([photo]) }, { photo: 'p.png' }),
		)
		expect(status).toBe(200)
		const sent = body.result as Sent
		expect(sent).toMatchObject({ chat: { id: ALICE }, caption: 'a photo', from: { id: BOB } })
		expect(sent.photo?.[0]).toMatchObject({ file_id: expect.any(String), file_unique_id: expect.any(String) })
		expect(sent.photo?.[0]?.file_size).toBe(photo.length)
		const [last] = await history(1)
		expect(last?.content).toMatchObject({ _: 'messagePhoto', caption: { text: 'a photo' } })
		expect(uploadsOf(f.userbotId)).toEqual([])
	})

	it('getFile of the photo and the download route give the bytes sent', async () => {
		const photo = bytes('photo to read back')
		const sent = (await call('sendPhoto', form({ chat_id: String(ALICE), photo: new Blob([photo]) }))).body
			.result as Sent
		const fileId = sent.photo?.[0]?.file_id ?? ''
		const got = await call('getFile', json({ file_id: fileId }))
		expect(got.status).toBe(200)
		const file = got.body.result as {
			file_id: string
			file_unique_id: string
			file_size: number
			file_path: string
		}
		expect(file).toMatchObject({
			file_id: fileId,
			file_unique_id: sent.photo?.[0]?.file_unique_id,
			file_size: photo.length,
		})
		const res = await fetch(`${f.t.url}/file/bot${token}/${file.file_path}`)
		expect(res.status).toBe(200)
		expect(res.headers.get('x-content-type-options')).toBe('nosniff')
		expect(new Uint8Array(await res.arrayBuffer())).toEqual(photo)
	})

	it('each kind goes as its own TDLib content, and comes back as its Bot API object', async () => {
		const cases = [
			['sendDocument', 'document', 'messageDocument'],
			['sendVideo', 'video', 'messageVideo'],
			['sendAudio', 'audio', 'messageAudio'],
			['sendVoice', 'voice', 'messageVoiceNote'],
			['sendAnimation', 'animation', 'messageAnimation'],
			['sendSticker', 'sticker', 'messageSticker'],
			['sendVideoNote', 'video_note', 'messageVideoNote'],
		] as const
		for (const [method, field, content] of cases) {
			const { status, body } = await call(
				method,
				form({ chat_id: String(ALICE), duration: '3', [field]: new Blob([bytes(method)]) }),
			)
			expect({ method, status }).toEqual({ method, status: 200 })
			const object = (body.result as Record<string, Record<string, unknown>>)[field]
			expect(object).toMatchObject({ file_id: expect.any(String), file_unique_id: expect.any(String) })
			if (field !== 'document' && field !== 'sticker') expect(object?.duration).toBe(3)
			const [last] = await history(1)
			expect({ method, kind: last?.content._ }).toEqual({ method, kind: content })
		}
		expect(uploadsOf(f.userbotId)).toEqual([])
	})

	it('sendMediaGroup takes 2-10 InputMedia naming their parts by attach://, and answers the messages', async () => {
		const media = [
			{ type: 'photo', media: 'attach://one', caption: 'first' },
			{ type: 'photo', media: 'attach://two' },
		]
		const { status, body } = await call(
			'sendMediaGroup',
			form({
				chat_id: String(ALICE),
				media: JSON.stringify(media),
				one: new Blob([bytes('one')]),
				two: new Blob([bytes('two')]),
			}),
		)
		expect(status).toBe(200)
		const messages = body.result as Sent[]
		expect(messages).toHaveLength(2)
		expect(messages[0]).toMatchObject({ caption: 'first', photo: [expect.any(Object)] })
		expect(messages[1]?.photo?.[0]?.file_size).toBe(bytes('two').length)
		const kinds = (await history(2)).map((m) => m.content._)
		expect(kinds).toEqual(['messagePhoto', 'messagePhoto'])
		expect((await call('sendMediaGroup', json({ chat_id: ALICE, media: [media[0]] }))).body.description).toBe(
			'Bad Request: media must include 2-10 items',
		)
		expect(
			(
				await call(
					'sendMediaGroup',
					json({ chat_id: ALICE, media: [media[0], { type: 'sticker', media: 'x' }] }),
				)
			).body.description,
		).toBe('Bad Request: invalid media type specified')
	})

	it("formats captions: parse_mode through TDLib's parser, or caption_entities; one parse_mode per group", async () => {
		const html = await call(
			'sendPhoto',
			form({
				chat_id: String(ALICE),
				caption: '<b>bold</b> note',
				parse_mode: 'HTML',
				photo: new Blob([bytes('fmt')]),
			}),
		)
		expect(html.status).toBe(200)
		expect(html.body.result).toMatchObject({
			caption: 'bold note',
			caption_entities: [{ type: 'bold', offset: 0, length: 4 }],
		})
		const [last] = await history(1)
		expect(last?.content).toMatchObject({
			caption: { text: 'bold note', entities: [{ type: { _: 'textEntityTypeBold' } }] },
		})
		const entities = await call(
			'sendPhoto',
			form({
				chat_id: String(ALICE),
				caption: 'in italics',
				caption_entities: JSON.stringify([{ type: 'italic', offset: 3, length: 7 }]),
				photo: new Blob([bytes('fmt2')]),
			}),
		)
		expect(entities.body.result).toMatchObject({
			caption_entities: [{ type: 'italic', offset: 3, length: 7 }],
		})
		const broken = await call(
			'sendPhoto',
			form({
				chat_id: String(ALICE),
				caption: '<b>open',
				parse_mode: 'HTML',
				photo: new Blob([bytes('fmt3')]),
			}),
		)
		expect(broken.status).toBe(400)
		expect(String(broken.body.description)).toStartWith("Bad Request: can't parse entities")
		expect(uploadsOf(f.userbotId)).toEqual([])
		const mixed = [
			{ type: 'photo', media: 'attach://one', caption: '<b>a</b>', parse_mode: 'HTML' },
			{ type: 'photo', media: 'attach://two', caption: '*b*', parse_mode: 'MarkdownV2' },
		]
		expect((await call('sendMediaGroup', json({ chat_id: ALICE, media: mixed }))).body.description).toBe(
			'Bad Request: the captions of a media group must share one parse_mode',
		)
	})

	it('sends by file_id again, and refuses a missing file or an attach:// naming no part', async () => {
		const sent = (
			await call('sendPhoto', form({ chat_id: String(ALICE), photo: new Blob([bytes('again')]) }))
		).body.result as Sent
		const again = await call('sendPhoto', json({ chat_id: ALICE, photo: sent.photo?.[0]?.file_id }))
		expect(again.status).toBe(200)
		expect((again.body.result as Sent).photo?.[0]?.file_size).toBe(bytes('again').length)
		expect((await call('sendPhoto', json({ chat_id: ALICE }))).body).toEqual({
			ok: false,
			error_code: 400,
			description: 'Bad Request: there is no photo in the request',
		})
		expect(
			(await call('sendPhoto', form({ chat_id: String(ALICE), photo: 'attach://nothing' }))).body.description,
		).toBe('Bad Request: there is no photo in the request')
		// A URL is TDLib's to fetch (the emulator reads it without fetching anything).
		const byUrl = await call('sendPhoto', json({ chat_id: ALICE, photo: 'https://example.com/cat.jpg' }))
		expect(byUrl.status).toBe(200)
		expect((byUrl.body.result as Sent).photo?.length).toBeGreaterThan(0)
		// The command's own forms are not the Bot API's: a stored upload's name, a TDLib file number.
		for (const photo of ['upload:cat.jpg', '5', String(sent.photo?.[0]?.file_size)])
			expect((await call('sendPhoto', json({ chat_id: ALICE, photo }))).body).toEqual({
				ok: false,
				error_code: 400,
				description: 'Bad Request: wrong file identifier/HTTP URL specified',
			})
	})

	it('refuses a body past its limits with the Bot API’s errors, storing nothing', async () => {
		const parts: Record<string, string> = { chat_id: String(ALICE) }
		for (let i = 0; i < 60; i++) parts[`f${i}`] = 'x'
		expect((await call('sendPhoto', form(parts))).body).toEqual({
			ok: false,
			error_code: 400,
			description: 'Bad Request: a request may have at most 50 parts',
		})
		const fields = await call(
			'sendPhoto',
			form({ chat_id: String(ALICE), caption: 'x'.repeat(1024 * 1024 + 1) }),
		)
		expect(fields).toEqual({
			status: 413,
			body: { ok: false, error_code: 413, description: 'Request Entity Too Large' },
		})
		const big = new Blob([new Uint8Array(50 * 1024 * 1024 + 1)])
		expect(await call('sendDocument', form({ chat_id: String(ALICE), document: big }))).toEqual({
			status: 413,
			body: { ok: false, error_code: 413, description: 'Request Entity Too Large' },
		})
		const broken = await call('sendPhoto', {
			method: 'POST',
			headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
			body: '--xyz\r\nnot a part',
		})
		expect(broken.body).toEqual({
			ok: false,
			error_code: 400,
			description: 'Bad Request: the request body is not valid multipart/form-data',
		})
		expect(uploadsOf(f.userbotId)).toEqual([])
	})

	it('a read-only token is refused before anything is stored', async () => {
		const { bot_token } = await made(f.alice.access, f.userbotId, { read_only: true })
		const res = await call(
			'sendPhoto',
			form({ chat_id: String(ALICE), photo: new Blob([bytes('ro')]) }),
			bot_token,
		)
		expect(res).toEqual({
			status: 403,
			body: { ok: false, error_code: 403, description: 'Forbidden: permission denied' },
		})
		expect(uploadsOf(f.userbotId)).toEqual([])
	})
})

describe('encoded bodies', () => {
	const gzipped = (body: string, type: string): RequestInit => ({
		method: 'POST',
		headers: { 'content-type': type, 'content-encoding': 'gzip' },
		body: Bun.gzipSync(Buffer.from(body)),
	})

	it('reads a gzip-encoded JSON body (what telegraf sends under Bun, whose node-fetch gzips it)', async () => {
		const res = await call(
			'sendMessage',
			gzipped(JSON.stringify({ chat_id: ALICE, text: 'gzipped' }), 'application/json'),
		)
		expect(res).toMatchObject({ status: 200, body: { ok: true, result: { text: 'gzipped' } } })
	})

	it('refuses a body that decodes past its limit, and an encoding it does not read', async () => {
		const bomb = JSON.stringify({ chat_id: ALICE, text: 'x'.repeat(2 * 1024 * 1024) })
		expect(await call('sendMessage', gzipped(bomb, 'application/json'))).toEqual({
			status: 413,
			body: { ok: false, error_code: 413, description: 'Request Entity Too Large' },
		})
		const res = await call('sendMessage', {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'content-encoding': 'br' },
			body: '{}',
		})
		expect(res.body).toEqual({
			ok: false,
			error_code: 400,
			description: 'Bad Request: unsupported Content-Encoding',
		})
		const broken = await call('sendMessage', {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
			body: 'not gzip at all',
		})
		expect(broken.body.description).toBe('Bad Request: the request body could not be decoded')
	})
})

describe('getFile and the download route', () => {
	it("answers TDLib's words for a file_id it cannot read, and 404 Not Found for such a path", async () => {
		const bad = await call('getFile', json({ file_id: 'AgACAgIAAxkBAAIBZ2' }))
		expect(bad.status).toBe(400)
		expect(bad.body.description).toStartWith('Bad Request: wrong remote file identifier specified')
		expect((await call('getFile', json({}))).body.description).toBe('Bad Request: file_id is empty')
		expect((await call('getFile', json({ file_id: 'A'.repeat(600) }))).body.description).toBe(
			'Bad Request: invalid file_id',
		)
		const res = await fetch(`${f.t.url}/file/bot${token}/AgACAgIAAxkBAAIBZ2`)
		expect(res.status).toBe(404)
		expect(await res.json()).toEqual({ ok: false, error_code: 404, description: 'Not Found' })
	})

	it('refuses a file over FILE_MAX_BYTES as the Bot API refuses a big file', async () => {
		const big = new Blob([new Uint8Array(5000)])
		const sent = (await call('sendDocument', form({ chat_id: String(ALICE), document: big }))).body
			.result as {
			document: { file_id: string; file_size: number }
		}
		expect(sent.document.file_size).toBe(5000)
		const file = (await call('getFile', json({ file_id: sent.document.file_id }))).body.result as {
			file_path: string
		}
		const res = await fetch(`${f.t.url}/file/bot${token}/${file.file_path}`)
		expect(res.status).toBe(400)
		expect(await res.json()).toEqual({
			ok: false,
			error_code: 400,
			description: 'Bad Request: file is too big',
		})
	})

	it('checks the token as the methods do; the access line names the pattern, never the token', async () => {
		const sent = (await call('sendPhoto', form({ chat_id: String(ALICE), photo: new Blob([bytes('tok')]) })))
			.body.result as Sent
		const path = sent.photo?.[0]?.file_id ?? ''
		const key = await made(f.alice.access, f.userbotId)
		const wrong = key.bot_token.replace(/^\d+:/, `${ALICE}:`)
		const refused = await fetch(`${f.t.url}/file/bot${wrong}/${path}`)
		expect(refused.status).toBe(401)
		expect(await refused.json()).toEqual({ ok: false, error_code: 401, description: 'Unauthorized' })
		expect((await fetch(`${f.t.url}/file/botnotatoken/${path}`)).status).toBe(404)
		const res = await fetch(`${f.t.url}/file/bot${key.bot_token}/${path}`)
		expect(res.status).toBe(200)
		expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes('tok'))
		// The access line is written once the answer is out: looked for until it is there.
		const credential = `key:${key.id}`
		let line: Record<string, unknown> | undefined
		const until = Date.now() + 5000
		while (!line && Date.now() < until) {
			line = lines
				.map((l) => JSON.parse(l) as Record<string, unknown>)
				.find((l) => l.credential === credential && l.msg === 'http' && l.status === 200)
			if (!line) await Bun.sleep(5)
		}
		expect(line).toMatchObject({ method: 'GET', route: '/file/bot:token/:file_path' })
		expect(lines.join('\n')).not.toContain(key.key)
	})
})
