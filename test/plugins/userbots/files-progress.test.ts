import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type * as Td from 'tdlib-types'
import { emulatorRequest } from '../../../src/emulator'
import { DOWNLOAD_PART_BYTES } from '../../../src/emulator/files/downloads'
import {
	createUserbot,
	type FreshServer,
	logInOverRest,
	type Member,
	openSocket,
	type Socket,
	serveFresh,
	signUp,
	type Update,
} from './support'

/**
 * A download the files route answers 202, followed live on the command channel: Bob sends Alice a
 * file of a little more than two of the emulated cloud's parts; Alice's downloads are held after
 * their first part (`emulatorHoldDownloads`: no clock decides what the route sees), so the route
 * answers 202; a subscriber to `updateFile` sees the bytes grow once they are let go, then the end.
 */
const ALICE = { phone: '9996611111', code: '11111' }
const BOB = { phone: '9996621234', code: '22222' }
const BYTES = new Uint8Array(2 * DOWNLOAD_PART_BYTES + 1000).map((_, i) => (i * 31) % 251)

let server: FreshServer
let owner: Member
let alice: number
let bob: number
let fileId: number

const get = (path: string) =>
	fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${owner.access}` } })
const hold = (on: boolean) =>
	server.ctx.runtime?.invoke(alice, emulatorRequest({ _: 'emulatorHoldDownloads', hold: on }))
type FileUpdate = Update & { seq: number; update: { _: string; file: Td.file } }
const fileUpdates = (ws: Socket) =>
	(ws.received as FileUpdate[]).filter(
		(u) =>
			(u as { type: string }).type === 'update' && u.update._ === 'updateFile' && u.update.file.id === fileId,
	)

beforeAll(async () => {
	server = await serveFresh({ FILE_DOWNLOAD_WAIT_MS: '100' })
	owner = await signUp(server.url)
	alice = await createUserbot(owner)
	await logInOverRest(owner, alice, ALICE)
	bob = await createUserbot(owner)
	await logInOverRest(owner, bob, BOB)
	const fd = new FormData()
	fd.append('file', new File([BYTES], 'report.bin'))
	const up = await fetch(`${server.url}/api/userbots/${bob}/files/`, {
		method: 'POST',
		headers: { authorization: `Bearer ${owner.access}` },
		body: fd,
	})
	const { file } = (await up.json()) as { file: string }
	const ws = await openSocket(server.url, owner.access)
	await ws.command('send_message', bob, { chat_id: 1001, media: { upload: file, media_type: 'document' } })
	const reply = await ws.command('get_chat_history', alice, { chat_id: 1002, limit: 1 })
	ws.close()
	const [last] = (reply.result as unknown as { messages: Td.message[] }).messages
	fileId = last?.content._ === 'messageDocument' ? last.content.document.document.id : 0
	expect(fileId).toBeGreaterThan(0)
})

afterAll(() => server.dispose())

describe('a running download on the command channel', () => {
	it('answers 202, and the subscriber sees updateFile grow to is_downloading_completed', async () => {
		const ws = await openSocket(server.url, owner.access)
		const sub = await ws.command('subscribe', alice, { updates: ['updateFile'] })
		expect(sub.type).toBe('subscribe')
		await hold(true)
		const pending = await get(`/api/userbots/${alice}/files/${fileId}`)
		expect(pending.status).toBe(202)
		expect(await pending.json()).toEqual({
			downloaded_size: DOWNLOAD_PART_BYTES,
			expected_size: BYTES.length,
		})
		const first = await ws.next((u) => fileUpdates(ws).includes(u as FileUpdate))
		expect((first as FileUpdate).update.file.local).toMatchObject({
			is_downloading_active: true,
			is_downloading_completed: false,
			downloaded_size: DOWNLOAD_PART_BYTES,
		})

		await hold(false)
		await ws.next((u) => (u as FileUpdate).update?.file?.local.is_downloading_completed === true)
		const seen = fileUpdates(ws).map((u) => u.update.file.local)
		expect(seen.map((l) => l.downloaded_size)).toEqual([
			DOWNLOAD_PART_BYTES,
			2 * DOWNLOAD_PART_BYTES,
			BYTES.length,
		])
		expect(seen.map((l) => l.is_downloading_completed)).toEqual([false, false, true])
		// In order, one stream: the numbers grow as the bytes do.
		const seqs = fileUpdates(ws).map((u) => u.seq)
		expect([...seqs].sort((x, y) => x - y)).toEqual(seqs)
		ws.close()

		const done = await get(`/api/userbots/${alice}/files/${fileId}`)
		expect(done.status).toBe(200)
		expect(new Uint8Array(await done.arrayBuffer())).toEqual(BYTES)
	})
})
