import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { existsSync } from 'node:fs'
import type * as Td from 'tdlib-types'
import { fileCache } from '../../../plugins/userbots/tables'
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
 * The files route's download cache over the real server (FILE_CACHE_BYTES): Alice's userbot fetches
 * the seeded photo and document Bob sent her, which fill the cache exactly; a third file Bob sends
 * then evicts the oldest of them from TDLib, and the newest stays.
 */
const ALICE = { phone: '9996611111', code: '11111' }
const BOB = { phone: '9996621234', code: '22222' }
const DOCUMENT = Buffer.from(SEED_DOCUMENT_TEXT)
const THIRD = new Uint8Array(Math.min(SEED_PHOTO_PNG.length, DOCUMENT.length)).map((_, i) => (i * 7) % 256)

let server: FreshServer
let owner: Member
let alice: number
let bob: number
let photoId: number
let documentId: number

type Content = {
	_: string
	photo?: { sizes: Array<{ photo: { id: number } }> }
	document?: { document: { id: number } }
}

const get = (path: string) =>
	fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${owner.access}` } })
const download = async (fileId: number) => {
	const res = await get(`/api/userbots/${alice}/files/${fileId}`)
	expect(res.status).toBe(200)
	return Buffer.from(await res.arrayBuffer())
}
/** TDLib's own view of Alice's copy (the emulator's, here): is it whole on her disk? */
const local = async (fileId: number) => {
	const file = (await server.ctx.runtime?.invoke(
		alice,
		{ _: 'getFile', file_id: fileId },
		{ label: 'userbots:file' },
	)) as Td.file
	return file.local.is_downloading_completed && existsSync(file.local.path)
}

async function history(ws: Awaited<ReturnType<typeof openSocket>>, limit: number) {
	// The first call may answer a partial batch, as TDLib's does: ask until the page is whole.
	let contents: Content[] = []
	for (let i = 0; i < 3 && contents.length < limit; i++) {
		const reply = await ws.command('get_chat_history', alice, { chat_id: 1002, limit })
		contents = (reply.result as unknown as { messages: Array<{ content: Content }> }).messages.map(
			(m) => m.content,
		)
	}
	return contents
}

beforeAll(async () => {
	server = await serveFresh({ FILE_CACHE_BYTES: String(SEED_PHOTO_PNG.length + DOCUMENT.length) })
	owner = await signUp(server.url)
	alice = await createUserbot(owner)
	await logInOverRest(owner, alice, ALICE)
	bob = await createUserbot(owner)
	await logInOverRest(owner, bob, BOB)
	const ws = await openSocket(server.url, owner.access)
	const found = await history(ws, 20)
	ws.close()
	photoId = found.find((c) => c._ === 'messagePhoto')?.photo?.sizes[0]?.photo.id ?? 0
	documentId = found.find((c) => c._ === 'messageDocument')?.document?.document.id ?? 0
	expect(photoId).toBeGreaterThan(0)
	expect(documentId).toBeGreaterThan(0)
})

afterAll(() => server.dispose())

describe('the download cache (FILE_CACHE_BYTES)', () => {
	it('evicts the oldest download from TDLib when a file past the quota comes, and keeps the newest', async () => {
		expect(await download(photoId)).toEqual(SEED_PHOTO_PNG)
		expect(await download(documentId)).toEqual(DOCUMENT)
		expect(await local(photoId)).toBe(true)
		expect(await local(documentId)).toBe(true)

		// Bob sends Alice a third file: its download no longer fits beside both.
		const fd = new FormData()
		fd.append('file', new File([THIRD], 'third.bin'))
		const up = await fetch(`${server.url}/api/userbots/${bob}/files/`, {
			method: 'POST',
			headers: { authorization: `Bearer ${owner.access}` },
			body: fd,
		})
		const { file } = (await up.json()) as { file: string }
		const ws = await openSocket(server.url, owner.access)
		const sent = await ws.command('send_message', bob, {
			chat_id: 1001,
			media: { upload: file, media_type: 'document' },
			wait_sent: true,
		})
		expect(sent.type).toBe('send_message')
		const [last] = await history(ws, 1)
		ws.close()
		const thirdId = last?.document?.document.id ?? 0
		expect(thirdId).toBeGreaterThan(0)

		expect(new Uint8Array(await download(thirdId))).toEqual(THIRD)
		expect(await local(photoId)).toBe(false)
		expect(await local(documentId)).toBe(true)
		expect(await local(thirdId)).toBe(true)
		expect((await server.ctx.db.select().from(fileCache)).map((r) => r.fileId).sort()).toEqual(
			[documentId, thirdId].sort(),
		)

		// The photo's next download is a fresh one; now the document is the oldest, and goes.
		expect(await download(photoId)).toEqual(SEED_PHOTO_PNG)
		expect(await local(photoId)).toBe(true)
		expect(await local(documentId)).toBe(false)
		expect(await local(thirdId)).toBe(true)
	})

	it('refuses with 413 a file bigger than the whole cache, before downloading it', async () => {
		const fd = new FormData()
		fd.append('file', new File([new Uint8Array(SEED_PHOTO_PNG.length + DOCUMENT.length + 1)], 'big.bin'))
		const up = await fetch(`${server.url}/api/userbots/${bob}/files/`, {
			method: 'POST',
			headers: { authorization: `Bearer ${owner.access}` },
			body: fd,
		})
		const { file } = (await up.json()) as { file: string }
		const ws = await openSocket(server.url, owner.access)
		await ws.command('send_message', bob, { chat_id: 1001, media: { upload: file, media_type: 'document' } })
		const [last] = await history(ws, 1)
		ws.close()
		const bigId = last?.document?.document.id ?? 0
		const res = await get(`/api/userbots/${alice}/files/${bigId}`)
		expect(res.status).toBe(413)
		expect(((await res.json()) as { code: string }).code).toBe('file_too_large')
		expect(await local(bigId)).toBe(false)
		// What the account sent itself is its uploads' quota's: Bob is served his own copy.
		const own = await get(`/api/userbots/${bob}/files/${bigId}`)
		expect(own.status).toBe(200)
	})
})
