import { createHash, timingSafeEqual } from 'node:crypto'
import type * as Td from 'tdlib-types'
import { fail, type Session } from '../session'
import type { UserRecord, World } from '../world'

/**
 * The 2FA domain's records. The password itself (value and hint) is the account's
 * `UserRecord.password`, the one source of truth the log-in step and ownership transfers read too; it
 * is always replaced, never edited in place, because the seed's records share their password objects.
 * Everything else of two-step verification lives here, one record per account, made on first use.
 */
export interface TwoFactorRecord {
	/** The confirmed recovery e-mail address; '' when none. */
	recoveryEmail: string
	/** A change waiting for the code sent to a new recovery address (Telegram's EMAIL_UNCONFIRMED). */
	pending?: PendingEmail
	/** World time at which 2FA went from off to on; 0 for the seed's passwords, set long before. */
	enabledAt: number
	/** The last password-recovery code sent to the recovery address. */
	recovery?: { code: string; expiresAt: number }
	ttlDays: number
}

export interface PendingEmail {
	address: string
	code: string
	/** A `setPassword` that named a new address is held whole until the address is confirmed. */
	password?: { value: string; hint: string }
}

export interface PasswordStore {
	accounts: Map<number, TwoFactorRecord>
	/** The emulated mail: the last code sent to each address (read by `emulatorReadMail`). */
	mailbox: Map<string, string>
	/** Log-in dates a test set (`emulatorSetSessionAge`), by authorization key; a session not in it logged in long ago. */
	logInDates: Map<string, number>
}

/** Telegram's rules for an ownership transfer: 2FA on for 7 days, a session older than 24 hours. */
export const PASSWORD_MIN_AGE = 7 * 86_400
export const SESSION_MIN_AGE = 86_400
/** Telegram's default account TTL (six months). */
export const DEFAULT_TTL_DAYS = 180
/** How long a password-recovery code stays valid, in world seconds. */
export const RECOVERY_CODE_LIFETIME = 3_600
export const CODE_LENGTH = 6

export const passwordStore = (world: World): PasswordStore =>
	world.store('password', () => ({ accounts: new Map(), mailbox: new Map(), logInDates: new Map() }))

export function me(s: Session): UserRecord {
	return s.world.users.get(s.userId) ?? fail('Unauthorized', 401)
}

export function twoFactor(s: Session): TwoFactorRecord {
	const { accounts } = passwordStore(s.world)
	let record = accounts.get(s.userId)
	if (!record) {
		record = { recoveryEmail: '', enabledAt: 0, ttlDays: DEFAULT_TTL_DAYS }
		accounts.set(s.userId, record)
	}
	return record
}

const digest = (text: string) => createHash('sha256').update(text).digest()

/** Compared as the server compares SRP proofs: the time taken says nothing about the password. */
export const samePassword = (given: string, actual: string) => timingSafeEqual(digest(given), digest(actual))

/**
 * The server's check of the current password (`account.getPasswordSettings`). With no password set
 * TDLib does not ask the server at all, so any value passes: callers that mean to verify a password
 * must look at `has_password` first (verify_2fa_password does).
 */
export function checkCurrentPassword(user: UserRecord, given: string | undefined) {
	if (user.password && !samePassword(given ?? '', user.password.value)) fail('PASSWORD_HASH_INVALID')
}

const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/

export function checkEmail(address: string) {
	if (address.length > 254 || !EMAIL.test(address)) fail('EMAIL_INVALID')
}

/** Telegram's masked form of an address: `c****@e******.com`. */
export function emailPattern(address: string): string {
	const [local = '', domain = ''] = address.split('@')
	const dot = domain.lastIndexOf('.')
	const mask = (part: string) => (part.length <= 1 ? '*' : `${part[0]}${'*'.repeat(part.length - 1)}`)
	return `${mask(local)}@${mask(domain.slice(0, dot))}${domain.slice(dot)}`
}

/** A fresh numeric code, "sent" to `address` (the emulated mailbox keeps the last one). */
export function sendCode(world: World, address: string): string {
	const digits = crypto.getRandomValues(new Uint32Array(CODE_LENGTH))
	const code = Array.from(digits, (d) => String(d % 10)).join('')
	passwordStore(world).mailbox.set(address, code)
	return code
}

export function passwordState(s: Session): Td.passwordState {
	const user = me(s)
	const record = twoFactor(s)
	return {
		_: 'passwordState',
		has_password: user.password !== undefined,
		password_hint: user.password?.hint ?? '',
		has_recovery_email_address: record.recoveryEmail !== '',
		has_passport_data: false,
		recovery_email_address_code_info: record.pending && {
			_: 'emailAddressAuthenticationCodeInfo',
			email_address_pattern: emailPattern(record.pending.address),
			length: CODE_LENGTH,
		},
		login_email_address_pattern: '',
		pending_reset_date: 0,
	}
}

/**
 * Sets (`value` non-empty) or removes the password. Removing it removes the recovery address and any
 * pending change with it, as Telegram does: they are part of the password's settings.
 */
export function applyPassword(s: Session, value: string, hint: string) {
	const user = me(s)
	const record = twoFactor(s)
	record.pending = undefined
	record.recovery = undefined
	if (value === '') {
		user.password = undefined
		record.recoveryEmail = ''
		record.enabledAt = 0
		return
	}
	if (!user.password) record.enabledAt = s.world.now()
	user.password = { value, hint }
}
