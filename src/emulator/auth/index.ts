import type * as Td from 'tdlib-types'
import { formattedText } from '../objects'
import { PROXY_METHODS } from '../proxies'
import { fail, type Handlers, OK, type Session } from '../session'

/**
 * The TDLib authorization state machine. Phones follow the test-DC convention `99966XYYYY`: X is
 * the DC (1-3), the code is X five times. A seeded account with a password asks for it next; an
 * unknown test phone registers a new account.
 */
const TEST_PHONE = /^99966([1-3])\d{4}$/

const expect = (s: Session, method: string, ...states: Array<Td.AuthorizationState['_']>) => {
	if (!states.includes(s.state._)) fail(`Call to ${method} unexpected`)
}

/**
 * Where `setAuthenticationPhoneNumber` and `requestQrCodeAuthentication` are taken, as TDLib
 * 1.8.65 documents both: waiting for the phone number, or any later log-in step (to start over with
 * another number or a QR code). Not while a QR code waits for its confirmation.
 */
const LOG_IN_STARTS: Array<Td.AuthorizationState['_']> = [
	'authorizationStateWaitPhoneNumber',
	'authorizationStateWaitPremiumPurchase',
	'authorizationStateWaitEmailAddress',
	'authorizationStateWaitEmailCode',
	'authorizationStateWaitCode',
	'authorizationStateWaitRegistration',
	'authorizationStateWaitPassword',
]

export function becomeReady(s: Session, userId: number, phone: string) {
	s.userId = userId
	s.login = undefined
	s.key = s.world.authorize(userId)
	// The account (a sign-up) and its authorization reach the disk before the folder names them.
	s.world.durable()
	s.persist({ userId, phone, key: s.key })
	s.options.set('my_id', { _: 'optionValueInteger', value: String(userId) })
	s.setState({ _: 'authorizationStateReady' })
}

function afterCode(s: Session) {
	const login = s.login!
	const user = login.userId !== undefined ? s.world.users.get(login.userId) : undefined
	if (!user) {
		return s.setState({
			_: 'authorizationStateWaitRegistration',
			terms_of_service: {
				_: 'termsOfService',
				text: formattedText('Terms of service of the emulated Telegram cloud.'),
				min_user_age: 0,
				show_popup: false,
			},
		})
	}
	if (user.password) {
		return s.setState({
			_: 'authorizationStateWaitPassword',
			password_hint: user.password.hint,
			has_recovery_email_address: false,
			has_passport_data: false,
			recovery_email_address_pattern: '',
		})
	}
	becomeReady(s, user.id, login.phone)
}

export const authHandlers: Handlers = {
	getAuthorizationState: (s) => s.state,
	setAuthenticationPhoneNumber(s, req) {
		const method = 'setAuthenticationPhoneNumber'
		expect(s, method, ...LOG_IN_STARTS)
		if (!req.phone_number) return fail('Phone number must be non-empty')
		const phone = req.phone_number.replace(/[\s+()-]/g, '')
		const match = TEST_PHONE.exec(phone)
		if (!match) return fail('PHONE_NUMBER_INVALID')
		const dc = Number(match[1])
		s.login = { phone, dc, userId: s.world.userByPhone(phone)?.id }
		s.setState({
			_: 'authorizationStateWaitCode',
			code_info: {
				_: 'authenticationCodeInfo',
				phone_number: `+${phone}`,
				type: { _: 'authenticationCodeTypeTelegramMessage', length: 5 },
				timeout: 0,
			},
		})
		return OK
	},
	checkAuthenticationCode(s, req) {
		expect(s, 'checkAuthenticationCode', 'authorizationStateWaitCode')
		if (req.code !== String(s.login!.dc).repeat(5)) return fail('PHONE_CODE_INVALID')
		afterCode(s)
		return OK
	},
	checkAuthenticationPassword(s, req) {
		expect(s, 'checkAuthenticationPassword', 'authorizationStateWaitPassword')
		const login = s.login!
		const user = s.world.users.get(login.userId ?? 0)
		if (!user?.password || req.password !== user.password.value) return fail('PASSWORD_HASH_INVALID')
		becomeReady(s, user.id, login.phone)
		return OK
	},
	registerUser(s, req) {
		expect(s, 'registerUser', 'authorizationStateWaitRegistration')
		const firstName = (req.first_name ?? '').trim()
		if (!firstName) return fail('First name must be non-empty')
		const login = s.login!
		const id = s.world.nextUserId++
		s.world.users.set(id, {
			id,
			firstName,
			lastName: (req.last_name ?? '').trim(),
			phone: login.phone,
			defaultAutoDeleteTime: 0,
		})
		becomeReady(s, id, login.phone)
		return OK
	},
	requestQrCodeAuthentication(s) {
		expect(s, 'requestQrCodeAuthentication', ...LOG_IN_STARTS)
		s.login = undefined
		const token = Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString('base64url')
		s.setState({ _: 'authorizationStateWaitOtherDeviceConfirmation', link: `tg://login?token=${token}` })
		return OK
	},
	logOut(s) {
		// Closing and Closed never get here: the client answers `500 Request aborted` first.
		if (s.state._ === 'authorizationStateLoggingOut') return fail('Already logging out')
		s.persist(null)
		s.userId = 0
		s.setState({ _: 'authorizationStateLoggingOut' })
		// Detached from the world by now: ending the authorization tells nobody else.
		s.world.revoke(s.key)
		s.key = ''
		queueMicrotask(() => {
			s.setState({ _: 'authorizationStateClosing' })
			s.setState({ _: 'authorizationStateClosed' })
		})
		return OK
	},
	close(s) {
		if (s.state._ === 'authorizationStateClosed') return OK
		s.setState({ _: 'authorizationStateClosing' })
		queueMicrotask(() => s.setState({ _: 'authorizationStateClosed' }))
		return OK
	},
}

/** Emulator-only: another device scanned the QR code of this client and confirmed as `phone`. */
export function confirmQrCode(s: Session, phone: string) {
	if (s.state._ !== 'authorizationStateWaitOtherDeviceConfirmation')
		return fail('emulator: no QR code is waiting for a confirmation')
	const user = s.world.userByPhone(phone)
	if (!user) return fail('PHONE_NUMBER_UNOCCUPIED')
	s.login = { phone, dc: 1, userId: user.id }
	if (user.password) afterCode(s)
	else becomeReady(s, user.id, phone)
	return OK
}

/**
 * Methods that need the Telegram cloud: after `setNetworkType(networkTypeNone)` they wait, as
 * TDLib's do, until the network is back or the client closes (then `500 Request aborted`).
 */
export const NEEDS_NETWORK = new Set<string>([
	'setAuthenticationPhoneNumber',
	'checkAuthenticationCode',
	'checkAuthenticationPassword',
	'registerUser',
	'requestQrCodeAuthentication',
	'logOut',
])

/**
 * What a closing client still answers (real TDLib 1.8.65, asked while `authorizationStateClosing`):
 * its synchronous requests and `close`; everything else is `500 Request aborted`.
 */
const ANSWERED_WHILE_CLOSING = new Set<string>([
	'getAuthorizationState',
	'getOption',
	'setLogVerbosityLevel',
	'testReturnError',
	'close',
])

export const isAborted = (s: Session, method: string) =>
	s.state._ === 'authorizationStateClosed' ||
	(s.state._ === 'authorizationStateClosing' && !ANSWERED_WHILE_CLOSING.has(method))

/** Methods that answer in any authorization state (TDLib's offline methods). */
export const ANY_STATE = new Set<string>([
	...Object.keys(authHandlers),
	'getOption',
	'setOption',
	'setNetworkType',
	...PROXY_METHODS,
	'setLogVerbosityLevel',
	// TDLib's static requests need no log-in.
	'parseTextEntities',
	'testCallEmpty',
	'testCallString',
	'testSquareInt',
	'testReturnError',
])
