import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { SEED_DOCUMENT_TEXT, SEED_PHOTO_PNG } from '../../../src/emulator/seed/read-side'
import {
	createUserbot,
	type FreshServer,
	logInOverRest,
	type Member,
	openSocket,
	serveFresh,
	signUp,
} from './support'

/**
 * Files out over the real server: Alice's userbot fetches the photo and the document Bob sent her
 * (seeded in their private chat) through `GET /api/userbots/{id}/files/{file_id}`.
 */
const ALICE = { phone: '9996611111', code: '11111' }
const DAVE = { phone: '9996614444', code: '11111' }

let server: FreshServer
let owner: Member
let alice: number
let dave: number
let photoId: number
let documentId: number

type Content = {
	_: string
	photo?: { sizes: Array<{ photo: { id: number } }> }
	document?: { document: { id: number } }
}

const get = (who: Member, path: string, headers: Record<string, string> = {}) =>
	fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${who.access}`, ...headers } })
const fileUrl = (userbot: number, fileId: number | string) => `/api/userbots/${userbot}/files/${fileId}`

beforeAll(async () => {
	// The seeded photo (the bigger of the two seeded files) is the most a request may fetch.
	server = await serveFresh({ FILE_MAX_BYTES: String(SEED_PHOTO_PNG.length) })
	owner = await signUp(server.url)
	alice = await createUserbot(owner)
	await logInOverRest(owner, alice, ALICE)
	dave = await createUserbot(owner)
	await logInOverRest(owner, dave, DAVE)
	const ws = await openSocket(server.url, owner.access)
	const found: Content[] = []
	// Bob's private chat with Alice: the first call may answer a partial batch, as TDLib's does.
	for (let i = 0; i < 3 && found.length < 2; i++) {
		const reply = await ws.command('get_chat_history', alice, { chat_id: 1002, limit: 20 })
		const { messages } = reply.result as unknown as { messages: Array<{ content: Content }> }
		found.splice(0, found.length, ...messages.map((m) => m.content).filter((c) => c.photo || c.document))
	}
	ws.close()
	photoId = found.find((c) => c._ === 'messagePhoto')?.photo?.sizes[0]?.photo.id ?? 0
	documentId = found.find((c) => c._ === 'messageDocument')?.document?.document.id ?? 0
	expect(photoId).toBeGreaterThan(0)
	expect(documentId).toBeGreaterThan(0)
})

afterAll(() => server.dispose())

describe('GET /api/userbots/{id}/files/{file_id}', () => {
	it('streams a photo another account sent, byte for byte, with its type, name and ETag', async () => {
		const res = await get(owner, fileUrl(alice, photoId))
		expect(res.status).toBe(200)
		expect(Buffer.from(await res.arrayBuffer())).toEqual(SEED_PHOTO_PNG)
		expect(res.headers.get('content-type')).toBe('image/png')
		expect(res.headers.get('content-disposition')).toStartWith('attachment; filename="')
		expect(res.headers.get('content-disposition')).toContain('sunset.png')
		expect(res.headers.get('accept-ranges')).toBe('bytes')
		expect(res.headers.get('x-content-type-options')).toBe('nosniff')
		expect(res.headers.get('etag')).toMatch(/^"[\w-]{27}"$/)
		const doc = await get(owner, fileUrl(alice, documentId))
		expect(doc.status).toBe(200)
		expect(await doc.text()).toBe(SEED_DOCUMENT_TEXT)
		expect(doc.headers.get('content-type')).toStartWith('text/plain')
		expect(doc.headers.get('etag')).not.toBe(res.headers.get('etag'))
	})

	it('answers a Range of 10 bytes with 206 and Content-Range, and an unsatisfiable one with 416', async () => {
		const size = SEED_PHOTO_PNG.length
		const res = await get(owner, fileUrl(alice, photoId), { range: 'bytes=5-14' })
		expect(res.status).toBe(206)
		expect(res.headers.get('content-range')).toBe(`bytes 5-14/${size}`)
		expect(Buffer.from(await res.arrayBuffer())).toEqual(SEED_PHOTO_PNG.subarray(5, 15))
		const tail = await get(owner, fileUrl(alice, photoId), { range: 'bytes=-10' })
		expect(tail.status).toBe(206)
		expect(Buffer.from(await tail.arrayBuffer())).toEqual(SEED_PHOTO_PNG.subarray(size - 10))
		const past = await get(owner, fileUrl(alice, photoId), { range: `bytes=${size}-` })
		expect(past.status).toBe(416)
		expect(past.headers.get('content-range')).toBe(`bytes */${size}`)
		expect(((await past.json()) as { code: string }).code).toBe('range_not_satisfiable')
	})

	it('answers 304 to If-None-Match with the ETag', async () => {
		const etag = (await get(owner, fileUrl(alice, photoId))).headers.get('etag') ?? ''
		const again = await get(owner, fileUrl(alice, photoId), { 'if-none-match': etag })
		expect(again.status).toBe(304)
		expect(await again.text()).toBe('')
		expect((await get(owner, fileUrl(alice, photoId), { 'if-none-match': '"other"' })).status).toBe(200)
	})

	it('gives another company’s user 404 for the same file', async () => {
		const stranger = await signUp(server.url, 'stranger')
		const res = await get(stranger, fileUrl(alice, photoId))
		expect(res.status).toBe(404)
		expect(await res.text()).not.toContain(String(photoId))
	})

	it('answers 404 for a file id the account does not have, and for one that names no file', async () => {
		// Dave is not in Alice and Bob's chat: the id is unknown to his account.
		const foreign = await get(owner, fileUrl(dave, photoId))
		expect(foreign.status).toBe(404)
		expect(await foreign.json()).toEqual({ detail: 'File not found.', code: 'file_not_found' })
		expect((await get(owner, fileUrl(alice, 987_654))).status).toBe(404)
		expect((await get(owner, fileUrl(alice, 2 ** 40))).status).toBe(404)
	})

	it('serves a file the account sent itself from its uploads, and refuses one over FILE_MAX_BYTES with 413', async () => {
		const sendOwn = async (bytes: Uint8Array<ArrayBuffer>) => {
			const fd = new FormData()
			fd.append('file', new File([bytes], 'own.bin'))
			const up = await fetch(`${server.url}/api/userbots/${alice}/files/`, {
				method: 'POST',
				headers: { authorization: `Bearer ${owner.access}` },
				body: fd,
			})
			const { file } = (await up.json()) as { file: string }
			const ws = await openSocket(server.url, owner.access)
			const sent = await ws.command('send_message', alice, {
				chat_id: 1002,
				media: { upload: file, media_type: 'document' },
			})
			ws.close()
			return (sent.result as unknown as { content: Content }).content.document?.document.id ?? 0
		}
		const small = new Uint8Array(50).map((_, i) => i)
		const smallId = await sendOwn(small)
		const own = await get(owner, fileUrl(alice, smallId))
		expect(own.status).toBe(200)
		expect(new Uint8Array(await own.arrayBuffer())).toEqual(small)
		const big = await get(owner, fileUrl(alice, await sendOwn(new Uint8Array(SEED_PHOTO_PNG.length + 1))))
		expect(big.status).toBe(413)
		expect(((await big.json()) as { code: string }).code).toBe('file_too_large')
	})

	it('refuses a file id that is not a number with 400, without quoting it', async () => {
		const res = await get(owner, fileUrl(alice, 'x..%2Fdb'))
		expect(res.status).toBe(400)
		const text = await res.text()
		expect(JSON.parse(text)).toEqual({ file_id: ['A valid integer is required.'] })
		expect(text).not.toContain('db')
	})
})
