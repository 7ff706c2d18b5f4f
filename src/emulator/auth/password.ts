import type * as Td from 'tdlib-types'
import { fail, type Handlers, OK, type Session } from '../session'
import {
	applyPassword,
	checkCurrentPassword,
	checkEmail,
	emailPattern,
	me,
	PASSWORD_MIN_AGE,
	passwordState,
	passwordStore,
	RECOVERY_CODE_LIFETIME,
	SESSION_MIN_AGE,
	samePassword,
	sendCode,
	twoFactor,
} from './password-store'

/**
 * Two-step verification: the password state machine (set, change, remove; a new recovery e-mail held
 * until its code is confirmed; recovery by a code mailed to the confirmed address), the account TTL
 * and the ownership-transfer check. Errors are worded as TDLib words them, or as Telegram's server
 * names them where TDLib passes the server's error on (`PASSWORD_HASH_INVALID`, `CODE_INVALID`...).
 */
export const passwordHandlers: Handlers = {
	getPasswordState: (s) => passwordState(s),

	setPassword(s, req) {
		const record = twoFactor(s)
		checkCurrentPassword(me(s), req.old_password)
		const value = req.new_password ?? ''
		const hint = req.new_hint ?? ''
		const address = req.set_recovery_email_address ? (req.new_recovery_email_address ?? '') : undefined
		if (address) {
			checkEmail(address)
			// A recovery address belongs to a password: Telegram refuses one for a password being removed.
			if (value === '') fail('NEW_SETTINGS_INVALID')
			if (address !== record.recoveryEmail) {
				record.pending = { address, code: sendCode(s.world, address), password: { value, hint } }
				return passwordState(s)
			}
		}
		applyPassword(s, value, hint)
		if (address === '') record.recoveryEmail = ''
		return passwordState(s)
	},

	setRecoveryEmailAddress(s, req) {
		const user = me(s)
		const record = twoFactor(s)
		if (!user.password) fail('PASSWORD_EMPTY')
		checkCurrentPassword(user, req.password)
		const address = req.new_recovery_email_address ?? ''
		if (address === '') {
			record.recoveryEmail = ''
			record.pending = undefined
			return passwordState(s)
		}
		checkEmail(address)
		// TDLib: the current address "succeeds immediately and aborts all other requests waiting for an
		// email confirmation".
		if (address === record.recoveryEmail) record.pending = undefined
		else record.pending = { address, code: sendCode(s.world, address) }
		return passwordState(s)
	},

	checkRecoveryEmailAddressCode(s, req) {
		const record = twoFactor(s)
		const pending = record.pending
		// TDLib swallows the server's CODE_INVALID and EMAIL_HASH_EXPIRED here and answers the state,
		// which still shows the pending address.
		if (!pending || !samePassword(req.code ?? '', pending.code)) return passwordState(s)
		if (pending.password) applyPassword(s, pending.password.value, pending.password.hint)
		record.pending = undefined
		record.recoveryEmail = pending.address
		return passwordState(s)
	},

	resendRecoveryEmailAddressCode(s) {
		const pending = twoFactor(s).pending
		// With nothing waiting Telegram answers EMAIL_HASH_EXPIRED, which TDLib swallows here too: the
		// answer is the state, nothing pending in it. Otherwise a new code replaces the last one.
		if (pending) pending.code = sendCode(s.world, pending.address)
		return passwordState(s)
	},

	getRecoveryEmailAddress(s, req) {
		// With no password TDLib does not ask the server, and any password "verifies"
		// (docs/tdlib-mapping.md#security-and-two-step-verification).
		checkCurrentPassword(me(s), req.password)
		return { _: 'recoveryEmailAddress', recovery_email_address: twoFactor(s).recoveryEmail }
	},

	requestPasswordRecovery(s) {
		const record = twoFactor(s)
		if (!me(s).password) fail('PASSWORD_EMPTY')
		if (record.recoveryEmail === '') fail('PASSWORD_RECOVERY_NA')
		const code = sendCode(s.world, record.recoveryEmail)
		record.recovery = { code, expiresAt: s.world.clock + RECOVERY_CODE_LIFETIME }
		// TDLib always reports the length as 0 here.
		return {
			_: 'emailAddressAuthenticationCodeInfo',
			email_address_pattern: emailPattern(record.recoveryEmail),
			length: 0,
		}
	},

	checkPasswordRecoveryCode(s, req) {
		const recovery = twoFactor(s).recovery
		if (recovery && recovery.expiresAt <= s.world.clock) fail('PASSWORD_RECOVERY_EXPIRED')
		// The server answers false for a wrong code; TDLib words that itself.
		if (!recovery || !samePassword(req.recovery_code ?? '', recovery.code)) fail('Invalid recovery code')
		return OK
	},

	recoverPassword(s, req) {
		const record = twoFactor(s)
		if (!me(s).password) fail('PASSWORD_EMPTY')
		const recovery = record.recovery ?? fail('PASSWORD_RECOVERY_NA')
		if (recovery.expiresAt <= s.world.clock) fail('PASSWORD_RECOVERY_EXPIRED')
		if ((req.recovery_code ?? '') === '') fail('CODE_EMPTY')
		if (!samePassword(req.recovery_code ?? '', recovery.code)) fail('CODE_INVALID')
		// An empty new password removes the password (TDLib then sends no new settings), and the
		// recovery address with it; a new one keeps the address.
		applyPassword(s, req.new_password ?? '', req.new_hint ?? '')
		return passwordState(s)
	},

	getAccountTtl: (s) => ({ _: 'accountTtl', days: twoFactor(s).ttlDays }),

	setAccountTtl(s, req) {
		const ttl = req.ttl ?? fail('New account TTL must be non-empty')
		const days = ttl.days ?? 0
		if (days < 30 || days > 730) fail('TTL_DAYS_INVALID')
		twoFactor(s).ttlDays = days
		return OK
	},

	canTransferOwnership(s): Td.CanTransferOwnershipResult {
		const record = twoFactor(s)
		if (!me(s).password) return { _: 'canTransferOwnershipResultPasswordNeeded' }
		const now = s.world.clock
		const passwordReady = record.enabledAt + PASSWORD_MIN_AGE
		if (record.enabledAt > 0 && passwordReady > now)
			return { _: 'canTransferOwnershipResultPasswordTooFresh', retry_after: passwordReady - now }
		const loggedIn = passwordStore(s.world).logInDates.get(s.key)
		if (loggedIn !== undefined && loggedIn + SESSION_MIN_AGE > now)
			return { _: 'canTransferOwnershipResultSessionTooFresh', retry_after: loggedIn + SESSION_MIN_AGE - now }
		return { _: 'canTransferOwnershipResultOk' }
	},
}

/**
 * Emulator-only requests of this domain (not TDLib's; the conformance log skips their names):
 * `emulatorReadMail {email_address}` reads the last code mailed to an address, as a user reads their
 * mail; `emulatorSetSessionAge {seconds}` says this session logged in that long ago (the emulator
 * otherwise takes every session as logged in long before the world began).
 */
export type PasswordEmulatorRequest =
	| { _: 'emulatorReadMail'; email_address: string }
	| { _: 'emulatorSetSessionAge'; seconds: number }

export function passwordEmulatorRequest(s: Session, req: PasswordEmulatorRequest): unknown {
	const store = passwordStore(s.world)
	if (req._ === 'emulatorReadMail') {
		const code = store.mailbox.get(String(req.email_address))
		return code === undefined ? fail('emulator: no mail for this address') : { _: 'text', text: code }
	}
	me(s)
	store.logInDates.set(s.key, s.world.clock - Math.max(0, Number(req.seconds) || 0))
	return OK
}
