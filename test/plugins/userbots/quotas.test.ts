import { afterAll, afterEach, beforeAll, describe, expect, it } from 'bun:test'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { userbot } from '../../../db/schema'
import { createUserbot, type FreshServer, type Member, serveFresh, signUp } from './support'

/** Limits on what one company can make the server store: uploads, userbots, and delete freeing space. */
let server: FreshServer
beforeAll(async () => {
	server = await serveFresh({
		UPLOAD_MAX_BYTES: '1000',
		UPLOAD_QUOTA_BYTES: '5000',
		COMPANY_UPLOAD_QUOTA_BYTES: '7000',
		COMPANY_USERBOT_LIMIT: '3',
	})
})
afterAll(() => server.dispose())
afterEach(async () => {
	await server.handle.client.execute('drop trigger if exists refuse_userbot_update')
})

const upload = (member: Member, id: number, size = 1000) => {
	const fd = new FormData()
	fd.append('file', new File([new Uint8Array(size)], 'media.bin'))
	return fetch(`${server.url}/api/userbots/${id}/files/`, {
		method: 'POST',
		headers: { authorization: `Bearer ${member.access}` },
		body: fd,
	})
}

/** Bytes in a userbot's uploads folder. */
const stored = (id: number) => {
	const dir = join(server.dataDir, 'tdlib', String(id), 'uploads')
	if (!existsSync(dir)) return 0
	return readdirSync(dir).reduce((n, f) => n + statSync(join(dir, f)).size, 0)
}

const codeOf = async (res: Response) => ((await res.json()) as { code?: string }).code

describe('upload quotas under concurrency', () => {
	it("store no more than a userbot's quota of twelve concurrent uploads", async () => {
		const owner = await signUp(server.url)
		const id = await createUserbot(owner)
		const answers = await Promise.all(Array.from({ length: 12 }, () => upload(owner, id)))
		const statuses = answers.map((r) => r.status)
		expect(statuses.filter((s) => s === 201)).toHaveLength(5)
		expect(statuses.filter((s) => s === 413)).toHaveLength(7)
		expect(stored(id)).toBe(Number(server.config.env.UPLOAD_QUOTA_BYTES))
	})

	it("store no more than the company's quota across its userbots", async () => {
		const owner = await signUp(server.url)
		const ids = [await createUserbot(owner), await createUserbot(owner)]
		const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => upload(owner, ids[i % 2] ?? 0)))
		expect(answers.filter((r) => r.status === 201)).toHaveLength(7)
		const refused = answers.filter((r) => r.status === 413)
		expect(new Set(await Promise.all(refused.map(codeOf)))).toEqual(new Set(['company_quota_exceeded']))
		expect(ids.reduce((n, id) => n + stored(id), 0)).toBe(
			Number(server.config.env.COMPANY_UPLOAD_QUOTA_BYTES),
		)
	})
})

describe('userbots per company', () => {
	it('creates no more than COMPANY_USERBOT_LIMIT of eight concurrent creates, and one more after a delete', async () => {
		const owner = await signUp(server.url)
		const answers = await Promise.all(
			Array.from({ length: 8 }, () => owner.call('POST', '/api/userbots/', {})),
		)
		const created = answers.filter((r) => r.status === 201)
		expect(created).toHaveLength(3)
		const refused = answers.filter((r) => r.status === 403)
		expect(refused).toHaveLength(5)
		expect(await refused[0]?.json()).toEqual({
			detail: 'This company already has 3 userbots, the most COMPANY_USERBOT_LIMIT allows; delete one first.',
			code: 'userbot_limit',
		})
		const list = (await (await owner.call('GET', '/api/userbots/')).json()) as Array<{ id: number }>
		expect(list).toHaveLength(3)
		// Another company has its own count.
		expect((await (await signUp(server.url)).call('POST', '/api/userbots/', {})).status).toBe(201)
		// A deleted userbot no longer counts.
		expect((await owner.call('DELETE', `/api/userbots/${list[0]?.id}/`)).status).toBe(204)
		expect((await owner.call('POST', '/api/userbots/', {})).status).toBe(201)
	})
})

describe('DELETE /api/userbots/{id}/ on a database that refuses the write', () => {
	it('frees the folders first, and a repeated DELETE marks the row', async () => {
		const owner = await signUp(server.url)
		const id = await createUserbot(owner)
		expect((await upload(owner, id)).status).toBe(201)
		const folder = join(server.dataDir, 'tdlib', String(id))
		expect(existsSync(folder)).toBe(true)
		// As a full disk would: the row's update is refused.
		await server.handle.client.execute(
			"create trigger refuse_userbot_update before update on userbot begin select raise(abort, 'refused'); end",
		)
		const first = await owner.call('DELETE', `/api/userbots/${id}/`)
		expect(first.status).toBe(500)
		expect(existsSync(folder)).toBe(false)
		// Gone for this process already: not shown, not listed, not usable.
		expect((await owner.call('GET', `/api/userbots/${id}/`)).status).toBe(404)
		expect(await (await owner.call('GET', '/api/userbots/')).json()).toEqual([])
		expect((await upload(owner, id)).status).toBe(404)
		await server.handle.client.execute('drop trigger refuse_userbot_update')
		expect((await owner.call('DELETE', `/api/userbots/${id}/`)).status).toBe(204)
		const [row] = await server.ctx.db.select().from(userbot).where(eq(userbot.id, id))
		expect(row?.deletedAt).toBeNumber()
		expect(existsSync(folder)).toBe(false)
	})
})
