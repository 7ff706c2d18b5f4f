import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import {
	type AccountsApp,
	login,
	PASSWORD,
	registerAccount,
	startAccounts,
	tokenPair,
	uniqueEmail,
} from './support'

/**
 * Every text field that is stored, and every lookup of stored text, goes through src/common/util/text.ts:
 * control characters and lone surrogates are refused on the field (never echoed), the rest is
 * compared and stored in NFC.
 */
let app: AccountsApp
let ownerHeaders: Record<string, string>
beforeAll(async () => {
	app = await startAccounts()
	const owner = await registerAccount(app)
	ownerHeaders = { cookie: (await login(app, owner.email)).cookie, origin: app.url }
})
afterAll(() => app.stop())

const CONTROL = 'Control characters are not allowed.'
const SURROGATE = 'Surrogate characters are not allowed.'
/** A bad character and the message its field must answer with. */
const BAD: Array<[string, string]> = [
	['\u0000', CONTROL],
	['\u0007', CONTROL],
	['\n', CONTROL],
	['\u0085', CONTROL],
	['\u2028', CONTROL],
	['\ud800', SURROGATE],
	['\udfff', SURROGATE],
]
/** Where a bad character goes: inside the local part of an address, or inside a name. */
const spoil = (field: string, c: string) => (field.includes('email') ? `zz${c}${uniqueEmail()}` : `Ad${c}a`)

const NFC = (tag: string) => `jos\u00e9.${uniqueEmail(tag)}`
const toNFD = (email: string) => email.normalize('NFD')

describe('stored text fields', () => {
	it('refuses an e-mail with a NUL that would read back as another account', async () => {
		const victim = uniqueEmail('owner-a')
		await registerAccount(app, { email: victim })
		const res = await app.post('/accounts/register/', {
			email: `${victim}\u0000.zz`,
			password: PASSWORD,
			first_name: 'Eve',
			last_name: 'Mallory',
		})
		expect(res.status).toBe(400)
		expect(await res.json()).toEqual({ email: [CONTROL] })
	})

	it('refuses control characters and lone surrogates on every field of register/, never echoing them', async () => {
		for (const field of ['email', 'first_name', 'last_name']) {
			for (const [c, message] of BAD) {
				const body: Record<string, string> = {
					email: uniqueEmail(),
					password: PASSWORD,
					first_name: 'Ada',
					last_name: 'Lovelace',
				}
				body[field] = spoil(field, c)
				const res = await app.post('/accounts/register/', body)
				expect(res.status).toBe(400)
				const text = await res.text()
				expect(JSON.parse(text)).toEqual({ [field]: [message] })
				expect(text).not.toContain(body[field])
			}
		}
	})

	it('says the same on check-password/ for the e-mail and the names', async () => {
		for (const field of ['email', 'first_name', 'last_name']) {
			for (const [c, message] of BAD) {
				const body: Record<string, string> = { email: uniqueEmail(), password: PASSWORD }
				body[field] = spoil(field, c)
				const res = await app.post('/accounts/check-password/', body)
				expect(res.status).toBe(400)
				expect(((await res.json()) as Record<string, string[]>)[field]).toEqual([message])
			}
		}
	})

	it('refuses them in an invite e-mail', async () => {
		for (const [c, message] of BAD) {
			const res = await app.post('/accounts/invites/', { email: spoil('email', c) }, ownerHeaders)
			expect(res.status).toBe(400)
			expect(await res.json()).toEqual({ email: [message] })
		}
	})

	it('refuses a lone surrogate in a password everywhere one is taken, which UTF-8 cannot carry', async () => {
		const bad = 'Vq7#pLm2!xZr\ud800'
		const email = uniqueEmail()
		for (const [path, body, field] of [
			['/accounts/register/', { email, password: bad, first_name: 'A', last_name: 'B' }, 'password'],
			['/accounts/check-password/', { email, password: bad }, 'password'],
			['/accounts/login/', { email, password: bad }, 'password'],
			['/accounts/token/', { email, password: bad }, 'password'],
			['/accounts/reset-password/', { email, token: 'x', new_password: bad }, 'new_password'],
		] as const) {
			const res = await app.post(path, body)
			expect(res.status).toBe(400)
			expect(((await res.json()) as Record<string, string[]>)[field]).toEqual([SURROGATE])
		}
	})

	it('keeps control characters in a password: it is hashed, never stored as text', async () => {
		const email = uniqueEmail()
		const password = 'tab\tin-the-Middle-42'
		const res = await app.post('/accounts/register/', { email, password, first_name: 'T', last_name: 'U' })
		expect(res.status).toBe(201)
		expect((await app.post('/accounts/token/', { email, password })).status).toBe(200)
	})
})

describe('e-mail addresses in NFC', () => {
	it('registers the composed and decomposed forms of one address once', async () => {
		const email = NFC('twice')
		const first = await app.post('/accounts/register/', {
			email: toNFD(email),
			password: PASSWORD,
			first_name: 'Jose\u0301',
			last_name: 'Nun\u0303ez',
		})
		expect(first.status).toBe(201)
		expect(await first.json()).toMatchObject({ email, first_name: 'Jos\u00e9', last_name: 'Nu\u00f1ez' })
		const second = await app.post('/accounts/register/', {
			email,
			password: PASSWORD,
			first_name: 'A',
			last_name: 'B',
		})
		expect(second.status).toBe(400)
		expect(await second.json()).toEqual({ email: ['A user with that email already exists.'] })
	})

	it('finds the account by either form at login, token, check-password and reset', async () => {
		const email = NFC('lookup')
		const user = await registerAccount(app, { email })
		expect((await app.post('/accounts/login/', { email: toNFD(email), password: PASSWORD })).status).toBe(200)
		expect((await tokenPair(app, toNFD(email))).access).toBeString()
		const check = await app.post('/accounts/check-password/', { email: toNFD(email), password: PASSWORD })
		expect(((await check.json()) as { email: string[] }).email).toEqual([
			'A user with that email already exists.',
		])
		const token = await app.core.resetTokens.issue(user.id, 3600)
		const reset = await app.post('/accounts/reset-password/', {
			email: toNFD(email),
			token,
			new_password: 'An0ther-Lamp-Orbit',
		})
		expect(reset.status).toBe(200)
	})

	it('matches an invite made for one form to a registration with the other', async () => {
		const email = NFC('invitee')
		const made = await app.post('/accounts/invites/', { email: toNFD(email) }, ownerHeaders)
		expect(made.status).toBe(201)
		const { token, email: stored } = (await made.json()) as { token: string; email: string }
		expect(stored).toBe(email)
		const joined = await registerAccount(app, { email, invite: token })
		expect(joined.email).toBe(email)
	})
})
