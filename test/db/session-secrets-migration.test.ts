import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import {
	copyFileSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@libsql/client'
import { eq } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/libsql'
import { migrate } from 'drizzle-orm/libsql/migrator'
import { refreshToken, SEED_STATUSES, statusOnWork, userProfile } from '../../db/schema'
import { sha256 } from '../../src/server/auth/crypto'
import { createTokenSigner, readClaims } from '../../src/server/auth/tokens'
import { getTestInstance, type TestInstance } from '../helpers'
import { PASSWORD, registerAccount, startAccounts, tokenPair } from '../plugins/accounts/support'

/**
 * Migration 0011 (docs/rest.md#secrets-at-rest): on a database made before it, which kept the
 * sessions' tokens in clear and the refresh tokens' ids and families as the tokens carry them, every
 * session ends (401 asking to log in again) and every refresh family with it, so nothing a backup
 * made before the upgrade holds is accepted; a new login works, and what it stores is hashed or
 * sealed.
 */
const MIGRATIONS = join(import.meta.dir, '../../db/migrations')
const SECRET = 'a-jwt-secret-for-the-migration-test-0123456789abcdef'
const LAST_BEFORE = 10

let dir: string
let app: TestInstance
const legacy = {
	cookie: 'legacy-cookie-value-0123456789abcdefghijklmnop',
	access: '',
	refresh: '',
	family: 'fam-s',
}
const standalone = { refresh: '', family: 'fam-t' }
let userId = 0
let email = ''

/** The migrations up to 0010, as a database made by the release before this one has them. */
function migrationsBefore(): string {
	const folder = join(dir, 'migrations-before')
	mkdirSync(join(folder, 'meta'), { recursive: true })
	const journal = JSON.parse(readFileSync(join(MIGRATIONS, 'meta/_journal.json'), 'utf8')) as {
		entries: Array<{ idx: number; tag: string }>
	}
	journal.entries = journal.entries.filter((e) => e.idx <= LAST_BEFORE)
	writeFileSync(join(folder, 'meta/_journal.json'), JSON.stringify(journal))
	for (const e of journal.entries)
		copyFileSync(join(MIGRATIONS, `${e.tag}.sql`), join(folder, `${e.tag}.sql`))
	expect(readdirSync(folder).filter((f) => f.endsWith('.sql'))).toHaveLength(LAST_BEFORE + 1)
	return folder
}

beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), 'ubg-migrate-'))
	const client = createClient({ url: `file:${join(dir, 'app.db')}` })
	const db = drizzle(client)
	await migrate(db, { migrationsFolder: migrationsBefore() })
	await db.insert(statusOnWork).values([...SEED_STATUSES])
	email = `legacy.${Date.now()}@example.com`
	const [status] = await db.select().from(statusOnWork)
	const [user] = await db
		.insert(userProfile)
		.values({ email, passwordHash: 'unused', statusId: status?.id ?? 1 })
		.returning()
	userId = user?.id ?? 0
	const signer = createTokenSigner(SECRET)
	const issue = async (family: string) => {
		const refresh = signer.sign('refresh', userId, family, 3600)
		await db.insert(refreshToken).values({
			jti: refresh.claims.jti,
			familyId: family,
			userId,
			expiresAt: refresh.claims.exp * 1000,
		})
		return { access: signer.sign('access', userId, family, 3600).token, refresh: refresh.token }
	}
	Object.assign(legacy, await issue(legacy.family))
	standalone.refresh = (await issue(standalone.family)).refresh
	// The row as the release before wrote it: its secrets in clear.
	await client.execute({
		sql: 'insert into session (id_hash, user_id, csrf_token, access_token, refresh_token, expires_at) values (?, ?, ?, ?, ?, ?)',
		args: [
			sha256(legacy.cookie),
			userId,
			'legacy-csrf',
			legacy.access,
			legacy.refresh,
			Date.now() + 86_400_000,
		],
	})
	client.close()
	app = await getTestInstance(
		{ JWT_SECRET: SECRET, PLUGINS: 'accounts', TDLIB_BACKEND: 'tdlib' },
		{ dataDir: dir },
	)
})

afterAll(async () => {
	await app?.stop()
	rmSync(dir, { recursive: true, force: true })
})

const me = (headers: Record<string, string>) => fetch(`${app.url}/accounts/me/`, { headers })
const refreshWith = (refresh: string) =>
	fetch(`${app.url}/accounts/token/refresh/`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ refresh }),
	})

describe('migration 0011 on a database with sessions in clear', () => {
	it('ends them: the cookie gets 401 asking to log in again, and no row is left', async () => {
		const res = await me({ cookie: `sessionid=${legacy.cookie}` })
		expect(res.status).toBe(401)
		expect(await res.json()).toEqual({
			detail: 'Session has expired, please log in again.',
			code: 'session_expired',
		})
		expect((await app.handle.client.execute('select count(*) as n from session')).rows[0]?.n).toBe(0)
	})

	it('ends every refresh family: the pairs a backup held are refused, as bearer and at refresh', async () => {
		expect((await me({ authorization: `Bearer ${legacy.access}` })).status).toBe(401)
		expect((await refreshWith(legacy.refresh)).status).toBe(401)
		// A pair from token/ too: its row held its jti and family as the token carries them.
		expect((await refreshWith(standalone.refresh)).status).toBe(401)
		expect(await app.ctx.db.select().from(refreshToken)).toEqual([])
	})
})

describe('a login after migration 0011', () => {
	it('works, and stores only hashes and the sealed session', async () => {
		const fresh = await startAccounts()
		try {
			const user = await registerAccount(fresh)
			const login = await fresh.post('/accounts/login/', { email: user.email, password: PASSWORD })
			const cookie = login.headers
				.getSetCookie()
				.map((c) => c.split(';')[0])
				.join('; ')
			expect((await fresh.me({ cookie })).status).toBe(200)
			const pair = await tokenPair(fresh, user.email)
			const columns = await fresh.handle.client.execute("select name from pragma_table_info('session')")
			expect(columns.rows.map((r) => r.name)).toEqual([
				'id_hash',
				'user_id',
				'sealed',
				'created_at',
				'expires_at',
			])
			const claims = readClaims(pair.refresh)
			const [row] = await fresh.ctx.db
				.select()
				.from(refreshToken)
				.where(eq(refreshToken.jti, sha256(claims?.jti ?? '')))
			expect(row?.familyId).toBe(sha256(claims?.fam ?? ''))
		} finally {
			await fresh.stop()
		}
	})
})
