import { afterAll, describe, expect, it } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createEmulatorBackend, type EmulatorRequest, emulatorRequest } from '../../src/emulator'
import { PASSWORD_MIN_AGE, RECOVERY_CODE_LIFETIME } from '../../src/emulator/auth/password-store'
import { createSeededWorld } from '../../src/emulator/seed'
import type { World } from '../../src/emulator/world'
import type { BackendClient } from '../../src/runtime/telegram/backend'
import { TdError, type TdMethod, type TdRequest, type TdResult } from '../../src/runtime/telegram/types'

/**
 * The emulated 2FA domain, in process so that the world's clock can be moved: the password state
 * machine, the held e-mail change, recovery by code, the account TTL and the ownership-transfer check.
 */
const dir = mkdtempSync(join(tmpdir(), 'ubg-emu-password-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
let nextClient = 1
let nextPhone = 9_000

interface Account {
	call<M extends TdMethod>(req: TdRequest<M>): Promise<TdResult<M>>
	emulator(req: EmulatorRequest): Promise<unknown>
	userId: number
	phone: string
}

/** A client of `world` logged in as `phone` (seed accounts), or as a new account registered now. */
async function logIn(world: World, phone?: string, password?: string): Promise<Account> {
	const id = nextClient++
	const databaseDirectory = join(dir, String(id))
	mkdirSync(databaseDirectory)
	const client: BackendClient = createEmulatorBackend(world).createClient(id, {
		databaseDirectory,
		filesDirectory: databaseDirectory,
		encryptionKey: 'a2V5',
	})
	const call = <M extends TdMethod>(req: TdRequest<M>) => client.invoke(req) as Promise<TdResult<M>>
	const number = phone ?? `999662${nextPhone++}`
	await call({ _: 'setAuthenticationPhoneNumber', phone_number: number })
	await call({ _: 'checkAuthenticationCode', code: number.charAt(5).repeat(5) })
	if (!phone) await call({ _: 'registerUser', first_name: 'New', last_name: 'Account' })
	if (password !== undefined) await call({ _: 'checkAuthenticationPassword', password })
	const me = await call({ _: 'getMe' })
	return { call, emulator: (req) => client.invoke(emulatorRequest(req)), userId: me.id, phone: number }
}

const tdError = async (p: Promise<unknown>) => {
	try {
		await p
	} catch (err) {
		expect(err).toBeInstanceOf(TdError)
		return (err as TdError).message
	}
	throw new Error('expected a TdError')
}

const readMail = async (a: Account, email_address: string) =>
	((await a.emulator({ _: 'emulatorReadMail', email_address })) as { text: string }).text

describe('emulator 2FA password', () => {
	it('reports the seed password of Carol, with its hint, and none for a new account', async () => {
		const world = createSeededWorld()
		const carol = await logIn(world, '9996631111', 'secret-2fa')
		expect(await carol.call({ _: 'getPasswordState' })).toEqual({
			_: 'passwordState',
			has_password: true,
			password_hint: 'the usual one',
			has_recovery_email_address: false,
			has_passport_data: false,
			login_email_address_pattern: '',
			pending_reset_date: 0,
		})
		const fresh = await logIn(world)
		expect(await fresh.call({ _: 'getPasswordState' })).toMatchObject({
			has_password: false,
			password_hint: '',
		})
	})

	it('sets a first password without checking old_password, then requires the right one', async () => {
		const world = createSeededWorld()
		const a = await logIn(world)
		const set = await a.call({
			_: 'setPassword',
			old_password: 'anything',
			new_password: 'p1',
			new_hint: 'h1',
		})
		expect(set).toMatchObject({ has_password: true, password_hint: 'h1' })
		expect(world.users.get(a.userId)?.password).toEqual({ value: 'p1', hint: 'h1' })
		expect(
			await tdError(a.call({ _: 'setPassword', old_password: 'wrong', new_password: 'p2', new_hint: '' })),
		).toBe('PASSWORD_HASH_INVALID')
		expect(await tdError(a.call({ _: 'getRecoveryEmailAddress', password: 'wrong' }))).toBe(
			'PASSWORD_HASH_INVALID',
		)
		expect(await a.call({ _: 'getRecoveryEmailAddress', password: 'p1' })).toEqual({
			_: 'recoveryEmailAddress',
			recovery_email_address: '',
		})
		// The log-in step reads the same password.
		expect((await logIn(world, a.phone, 'p1')).userId).toBe(a.userId)
		expect(await tdError(logIn(world, a.phone, 'secret-2fa'))).toBe('PASSWORD_HASH_INVALID')
		const removed = await a.call({ _: 'setPassword', old_password: 'p1', new_password: '', new_hint: '' })
		expect(removed).toMatchObject({ has_password: false, password_hint: '' })
		expect(world.users.get(a.userId)?.password).toBeUndefined()
	})

	it('lets any password through getRecoveryEmailAddress when none is set, as TDLib does', async () => {
		const a = await logIn(createSeededWorld())
		expect(await a.call({ _: 'getRecoveryEmailAddress', password: 'whatever' })).toEqual({
			_: 'recoveryEmailAddress',
			recovery_email_address: '',
		})
	})

	it('holds a change that names a new recovery address until its code is confirmed', async () => {
		const world = createSeededWorld()
		const a = await logIn(world)
		const held = await a.call({
			_: 'setPassword',
			old_password: '',
			new_password: 'p1',
			new_hint: 'h1',
			set_recovery_email_address: true,
			new_recovery_email_address: 'new.owner@example.com',
		})
		expect(held).toMatchObject({
			has_password: false,
			has_recovery_email_address: false,
			recovery_email_address_code_info: {
				_: 'emailAddressAuthenticationCodeInfo',
				email_address_pattern: 'n********@e******.com',
				length: 6,
			},
		})
		// A wrong code changes nothing (TDLib swallows CODE_INVALID and answers the state).
		const code = await readMail(a, 'new.owner@example.com')
		const wrong = code === '000000' ? '111111' : '000000'
		expect(await a.call({ _: 'checkRecoveryEmailAddressCode', code: wrong })).toMatchObject({
			has_password: false,
			recovery_email_address_code_info: { length: 6 },
		})
		const done = await a.call({ _: 'checkRecoveryEmailAddressCode', code })
		expect(done).toMatchObject({ has_password: true, password_hint: 'h1', has_recovery_email_address: true })
		expect(done.recovery_email_address_code_info).toBeUndefined()
		expect(await a.call({ _: 'getRecoveryEmailAddress', password: 'p1' })).toMatchObject({
			recovery_email_address: 'new.owner@example.com',
		})
	})

	it('changes the recovery address alone, pending too; the current one aborts the wait', async () => {
		const world = createSeededWorld()
		const carol = await logIn(world, '9996631111', 'secret-2fa')
		expect(
			await tdError(
				carol.call({
					_: 'setRecoveryEmailAddress',
					password: 'nope',
					new_recovery_email_address: 'c@ex.com',
				}),
			),
		).toBe('PASSWORD_HASH_INVALID')
		expect(
			await tdError(
				carol.call({
					_: 'setRecoveryEmailAddress',
					password: 'secret-2fa',
					new_recovery_email_address: 'no',
				}),
			),
		).toBe('EMAIL_INVALID')
		const pending = await carol.call({
			_: 'setRecoveryEmailAddress',
			password: 'secret-2fa',
			new_recovery_email_address: 'carol@example.com',
		})
		expect(pending).toMatchObject({ has_recovery_email_address: false, recovery_email_address_code_info: {} })
		await carol.call({ _: 'checkRecoveryEmailAddressCode', code: await readMail(carol, 'carol@example.com') })
		const other = await carol.call({
			_: 'setRecoveryEmailAddress',
			password: 'secret-2fa',
			new_recovery_email_address: 'other@example.com',
		})
		expect(other.recovery_email_address_code_info).toBeDefined()
		const same = await carol.call({
			_: 'setRecoveryEmailAddress',
			password: 'secret-2fa',
			new_recovery_email_address: 'carol@example.com',
		})
		expect(same).toMatchObject({ has_recovery_email_address: true })
		expect(same.recovery_email_address_code_info).toBeUndefined()
		// Without a password there is no recovery address to set.
		const fresh = await logIn(world)
		expect(
			await tdError(
				fresh.call({
					_: 'setRecoveryEmailAddress',
					password: '',
					new_recovery_email_address: 'f@example.com',
				}),
			),
		).toBe('PASSWORD_EMPTY')
	})

	it('recovers by a mailed code: Invalid recovery code, CODE_INVALID, expiry, a new password', async () => {
		const world = createSeededWorld()
		const carol = await logIn(world, '9996631111', 'secret-2fa')
		expect(await tdError(carol.call({ _: 'requestPasswordRecovery' }))).toBe('PASSWORD_RECOVERY_NA')
		expect(
			await tdError(carol.call({ _: 'recoverPassword', recovery_code: '123456', new_password: 'x' })),
		).toBe('PASSWORD_RECOVERY_NA')
		await carol.call({
			_: 'setRecoveryEmailAddress',
			password: 'secret-2fa',
			new_recovery_email_address: 'carol@example.com',
		})
		await carol.call({ _: 'checkRecoveryEmailAddressCode', code: await readMail(carol, 'carol@example.com') })
		expect(await carol.call({ _: 'requestPasswordRecovery' })).toEqual({
			_: 'emailAddressAuthenticationCodeInfo',
			email_address_pattern: 'c****@e******.com',
			length: 0,
		})
		const code = await readMail(carol, 'carol@example.com')
		const wrong = code === '000000' ? '111111' : '000000'
		expect(await tdError(carol.call({ _: 'checkPasswordRecoveryCode', recovery_code: wrong }))).toBe(
			'Invalid recovery code',
		)
		expect(await carol.call({ _: 'checkPasswordRecoveryCode', recovery_code: code })).toEqual({ _: 'ok' })
		expect(await tdError(carol.call({ _: 'recoverPassword', recovery_code: wrong, new_password: 'n' }))).toBe(
			'CODE_INVALID',
		)
		const recovered = await carol.call({
			_: 'recoverPassword',
			recovery_code: code,
			new_password: 'new-secret',
			new_hint: 'new hint',
		})
		expect(recovered).toMatchObject({
			has_password: true,
			password_hint: 'new hint',
			has_recovery_email_address: true,
		})
		expect(world.users.get(1003)?.password).toEqual({ value: 'new-secret', hint: 'new hint' })
		// The code is spent.
		expect(await tdError(carol.call({ _: 'recoverPassword', recovery_code: code, new_password: 'n' }))).toBe(
			'PASSWORD_RECOVERY_NA',
		)
		// A code expires with the world's clock.
		await carol.call({ _: 'requestPasswordRecovery' })
		const late = await readMail(carol, 'carol@example.com')
		world.clock += RECOVERY_CODE_LIFETIME
		expect(await tdError(carol.call({ _: 'checkPasswordRecoveryCode', recovery_code: late }))).toBe(
			'PASSWORD_RECOVERY_EXPIRED',
		)
		expect(await tdError(carol.call({ _: 'recoverPassword', recovery_code: late, new_password: 'n' }))).toBe(
			'PASSWORD_RECOVERY_EXPIRED',
		)
	})

	it('removes the password and its recovery address when recovering with an empty new password', async () => {
		const world = createSeededWorld()
		const carol = await logIn(world, '9996631111', 'secret-2fa')
		await carol.call({
			_: 'setRecoveryEmailAddress',
			password: 'secret-2fa',
			new_recovery_email_address: 'carol@example.com',
		})
		await carol.call({ _: 'checkRecoveryEmailAddressCode', code: await readMail(carol, 'carol@example.com') })
		await carol.call({ _: 'requestPasswordRecovery' })
		const code = await readMail(carol, 'carol@example.com')
		expect(await carol.call({ _: 'recoverPassword', recovery_code: code, new_password: '' })).toMatchObject({
			has_password: false,
			has_recovery_email_address: false,
		})
		expect(await tdError(carol.call({ _: 'requestPasswordRecovery' }))).toBe('PASSWORD_EMPTY')
	})

	it('refuses a recovery address for a password being removed', async () => {
		const carol = await logIn(createSeededWorld(), '9996631111', 'secret-2fa')
		expect(
			await tdError(
				carol.call({
					_: 'setPassword',
					old_password: 'secret-2fa',
					new_password: '',
					set_recovery_email_address: true,
					new_recovery_email_address: 'c@example.com',
				}),
			),
		).toBe('NEW_SETTINGS_INVALID')
	})
})

describe('emulator account TTL', () => {
	it('keeps 180 days by default and takes 30 to 730', async () => {
		const a = await logIn(createSeededWorld())
		expect(await a.call({ _: 'getAccountTtl' })).toEqual({ _: 'accountTtl', days: 180 })
		expect(await a.call({ _: 'setAccountTtl', ttl: { _: 'accountTtl', days: 30 } })).toEqual({ _: 'ok' })
		expect(await a.call({ _: 'getAccountTtl' })).toEqual({ _: 'accountTtl', days: 30 })
		expect(await a.call({ _: 'setAccountTtl', ttl: { _: 'accountTtl', days: 730 } })).toEqual({ _: 'ok' })
		expect(await tdError(a.call({ _: 'setAccountTtl', ttl: { _: 'accountTtl', days: 29 } }))).toBe(
			'TTL_DAYS_INVALID',
		)
		expect(await tdError(a.call({ _: 'setAccountTtl', ttl: { _: 'accountTtl', days: 731 } }))).toBe(
			'TTL_DAYS_INVALID',
		)
		expect(await tdError(a.call({ _: 'setAccountTtl' }))).toBe('New account TTL must be non-empty')
		expect(await a.call({ _: 'getAccountTtl' })).toEqual({ _: 'accountTtl', days: 730 })
	})
})

describe('emulator ownership-transfer check', () => {
	it('needs a password, one older than 7 days, and a session older than a day', async () => {
		const world = createSeededWorld()
		const a = await logIn(world)
		expect(await a.call({ _: 'canTransferOwnership' })).toEqual({
			_: 'canTransferOwnershipResultPasswordNeeded',
		})
		await a.call({ _: 'setPassword', old_password: '', new_password: 'p1', new_hint: '' })
		const fresh = await a.call({ _: 'canTransferOwnership' })
		expect(fresh._).toBe('canTransferOwnershipResultPasswordTooFresh')
		const retry = (fresh as { retry_after: number }).retry_after
		expect(retry).toBeGreaterThan(PASSWORD_MIN_AGE - 60)
		expect(retry).toBeLessThanOrEqual(PASSWORD_MIN_AGE)
		world.clock += 1_000
		expect(await a.call({ _: 'canTransferOwnership' })).toEqual({
			_: 'canTransferOwnershipResultPasswordTooFresh',
			retry_after: retry - 1_000,
		})
		// A change keeps the date 2FA was turned on.
		await a.call({ _: 'setPassword', old_password: 'p1', new_password: 'p2', new_hint: '' })
		world.clock += retry - 1_000
		expect(await a.call({ _: 'canTransferOwnership' })).toEqual({ _: 'canTransferOwnershipResultOk' })
		await a.emulator({ _: 'emulatorSetSessionAge', seconds: 3_600 })
		expect(await a.call({ _: 'canTransferOwnership' })).toEqual({
			_: 'canTransferOwnershipResultSessionTooFresh',
			retry_after: 86_400 - 3_600,
		})
		// The seed's password was set long before the world began.
		const carol = await logIn(world, '9996631111', 'secret-2fa')
		expect(await carol.call({ _: 'canTransferOwnership' })).toEqual({ _: 'canTransferOwnershipResultOk' })
	})
})
