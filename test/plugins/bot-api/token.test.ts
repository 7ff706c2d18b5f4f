import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { apiKey, userbot } from '../../../db/schema'
import { type Company, startCompany } from '../../gateway/company'
import { createLoggedInUserbot } from '../../helpers-ws'

/**
 * A Bot API token (docs/bot-api.md): `POST /api/keys/` with `"bot_api": true` and exactly one
 * logged-in userbot answers `bot_token`, `<the account's Telegram user id>:<key>`; only the key's
 * SHA-256 is stored.
 */
let c: Company
let second: number
let loggedOut: number
beforeAll(async () => {
	c = await startCompany()
	second = await createLoggedInUserbot(c.t, c.owner.companyId, '9996625555')
	const [row] = await c.t.ctx.db
		.insert(userbot)
		.values({ companyId: c.owner.companyId, name: 'new', encryptionKey: 'eA==' })
		.returning({ id: userbot.id })
	loggedOut = row!.id
})
afterAll(() => c.stop())

const accountId = async (userbotId: number) => {
	const me = await c.t.ctx.runtime!.invoke(userbotId, { _: 'getMe' }, { label: 'userbots:ready' })
	return me.id
}

describe('a Bot API token', () => {
	it('is `<Telegram user id>:<key>` beside the key, the key stored as its SHA-256 only', async () => {
		const res = await c.call('POST', '/api/keys/', c.owner.access, {
			name: 'bot',
			bot_api: true,
			userbot_ids: [c.userbotId],
		})
		expect(res.status).toBe(201)
		const made = (await res.json()) as { id: number; key: string; bot_token: string; bot_api: boolean }
		expect(made.bot_api).toBe(true)
		expect(made.bot_token).toBe(`${await accountId(c.userbotId)}:${made.key}`)
		expect(made.bot_token).toMatch(/^\d+:ubg_[A-Za-z0-9_-]{43}$/)
		const [row] = await c.t.ctx.db.select().from(apiKey).where(eq(apiKey.id, made.id))
		expect(row?.keyHash).toBe(new Bun.CryptoHasher('sha256').update(made.key).digest('hex'))
		expect(row?.botUserId).toBe(await accountId(c.userbotId))
		expect(JSON.stringify(row)).not.toContain(made.key)
		const listed = (await (await c.call('GET', '/api/keys/', c.owner.access)).json()) as Array<
			Record<string, unknown>
		>
		const mine = listed.find((k) => k.id === made.id)
		expect(mine).toMatchObject({ bot_api: true, scopes: { userbot_ids: [c.userbotId] } })
		expect(mine).not.toHaveProperty('bot_token')
	})

	it('a plain key has no token', async () => {
		const res = await c.call('POST', '/api/keys/', c.owner.access, { name: 'plain' })
		const made = (await res.json()) as Record<string, unknown>
		expect(res.status).toBe(201)
		expect(made.bot_api).toBe(false)
		expect(made).not.toHaveProperty('bot_token')
	})

	it('names exactly one userbot: none, all or two are a field error on userbot_ids', async () => {
		for (const ids of [undefined, null, [], [c.userbotId, second]]) {
			const body = { name: 'bot', bot_api: true, ...(ids === undefined ? {} : { userbot_ids: ids }) }
			const res = await c.call('POST', '/api/keys/', c.owner.access, body)
			expect(res.status).toBe(400)
			expect(await res.json()).toEqual({ userbot_ids: ['A Bot API token names exactly one userbot.'] })
		}
	})

	it('needs a logged-in account, whose user id it carries', async () => {
		const res = await c.call('POST', '/api/keys/', c.owner.access, {
			name: 'bot',
			bot_api: true,
			userbot_ids: [loggedOut],
		})
		expect(res.status).toBe(400)
		expect(await res.json()).toEqual({ userbot_ids: ['The userbot is not logged in.'] })
	})

	it('words a bot_api that is no boolean without echoing it', async () => {
		const res = await c.call('POST', '/api/keys/', c.owner.access, {
			name: 'bot',
			bot_api: 'sure-xyz',
			userbot_ids: [c.userbotId],
		})
		expect(res.status).toBe(400)
		const text = await res.text()
		expect(JSON.parse(text)).toEqual({ bot_api: ['Must be a valid boolean.'] })
		expect(text).not.toContain('sure-xyz')
	})
})
