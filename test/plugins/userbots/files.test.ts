import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { SEED_CHATS } from '../../../src/emulator/seed'
import {
	createUserbot,
	type FreshServer,
	logInOverRest,
	type Member,
	openSocket,
	serveFresh,
	signUp,
} from './support'

let server: FreshServer
let owner: Member
let id: number

const upload = (file: File | string, fieldName = 'file') => {
	const fd = new FormData()
	fd.append(fieldName, file)
	return fetch(`${server.url}/api/userbots/${id}/files/`, {
		method: 'POST',
		headers: { authorization: `Bearer ${owner.access}` },
		body: fd,
	})
}

beforeAll(async () => {
	server = await serveFresh({ UPLOAD_MAX_BYTES: '1024', UPLOAD_QUOTA_BYTES: '8192' })
	owner = await signUp(server.url)
	id = await createUserbot(owner)
	await logInOverRest(owner, id)
})

afterAll(() => server.dispose())

describe('POST /api/userbots/{id}/files/', () => {
	it('stores the file under a random name in the userbot folder', async () => {
		const res = await upload(new File(['hello, world'], '../../etc/Report.PDF', { type: 'application/pdf' }))
		expect(res.status).toBe(201)
		const body = (await res.json()) as { file: string; size: number }
		expect(body.size).toBe(12)
		expect(body.file).toMatch(/^[0-9a-f]{32}\.pdf$/)
		const stored = join(server.dataDir, 'tdlib', String(id), 'uploads', body.file)
		expect(readFileSync(stored, 'utf8')).toBe('hello, world')
	})

	it('refuses a file over the size limit with 413 and keeps nothing', async () => {
		const before = readdirSync(join(server.dataDir, 'tdlib', String(id), 'uploads')).length
		const res = await upload(new File([new Uint8Array(1025)], 'big.bin'))
		expect(res.status).toBe(413)
		expect(((await res.json()) as { code: string }).code).toBe('file_too_large')
		const huge = await upload(new File([new Uint8Array(200_000)], 'huge.bin'))
		expect(huge.status).toBe(413)
		expect(readdirSync(join(server.dataDir, 'tdlib', String(id), 'uploads')).length).toBe(before)
	})

	it('wants a multipart body with a file field', async () => {
		expect((await upload('just text')).status).toBe(400)
		expect(await (await upload(new File(['x'], 'a.txt'), 'other')).json()).toEqual({
			file: ['No file was submitted.'],
		})
		const json = await owner.call('POST', `/api/userbots/${id}/files/`, { file: 'x' })
		expect(json.status).toBe(415)
		// The client's own Content-Type is not quoted back.
		const odd = await fetch(`${server.url}/api/userbots/${id}/files/`, {
			method: 'POST',
			headers: { authorization: `Bearer ${owner.access}`, 'content-type': 'text/x-echo-me' },
			body: 'x',
		})
		expect(odd.status).toBe(415)
		expect(await odd.text()).not.toContain('echo-me')
	})

	it('is usable as media in a command', async () => {
		const res = await upload(new File(['%PDF-1.4 tiny'], 'doc.pdf'))
		const { file } = (await res.json()) as { file: string }
		const ws = await openSocket(server.url, owner.access)
		const sent = await ws.command('send_message', id, {
			chat_id: SEED_CHATS.basicGroup,
			media: { upload: file, media_type: 'document' },
		})
		ws.close()
		expect(sent.error).toBeUndefined()
		expect(sent.type).toBe('send_message')
	})

	it("refuses an upload past the userbot's quota with 413 and keeps nothing", async () => {
		const dir = join(server.dataDir, 'tdlib', String(id), 'uploads')
		const used = readdirSync(dir).reduce((n, f) => n + statSync(join(dir, f)).size, 0)
		const quota = Number(server.config.env.UPLOAD_QUOTA_BYTES)
		// Fill the folder up to the quota (each upload under the per-file limit), then one byte more.
		let left = quota - used
		while (left > 0) {
			const size = Math.min(left, server.config.uploadMaxBytes)
			expect((await upload(new File([new Uint8Array(size)], 'fill.bin'))).status).toBe(201)
			left -= size
		}
		const before = readdirSync(dir).length
		const over = await upload(new File(['x'], 'one-more.txt'))
		expect(over.status).toBe(413)
		expect(((await over.json()) as { code: string }).code).toBe('quota_exceeded')
		expect(readdirSync(dir).length).toBe(before)
	})

	it('goes away with the userbot', async () => {
		expect((await owner.call('DELETE', `/api/userbots/${id}/`)).status).toBe(204)
		expect(existsSync(join(server.dataDir, 'tdlib', String(id)))).toBe(false)
	})
})
