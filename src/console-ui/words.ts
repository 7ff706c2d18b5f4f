import { GatewayErrors } from '../common/wire/errors'

/**
 * Telegram's and the gateway's terse answers, said as sentences. The code itself stays on screen in
 * small print (support and search engines know it by its code); a message no entry knows is shown
 * as it came, since every string the server sends is already ours or TDLib's.
 */
const SENTENCES: Record<string, string> = {
	PHONE_NUMBER_INVALID:
		'Telegram does not know this phone number. Type it in international format, with the country code (for example +44 7700 900123).',
	PHONE_NUMBER_BANNED: 'Telegram has banned this phone number.',
	PHONE_NUMBER_FLOOD: 'This number asked for too many codes. Wait a while, then try again.',
	PHONE_CODE_INVALID: 'That code is not the one Telegram sent. Check it and type it again.',
	PHONE_CODE_EXPIRED: 'That code has expired. Ask for a new one.',
	PHONE_CODE_EMPTY: 'Type the code Telegram sent.',
	PASSWORD_HASH_INVALID: 'That is not the two-step verification password of this account.',
	FIRST_NAME_INVALID: 'Telegram does not accept this first name.',
	FLOOD_WAIT: 'Telegram asks to slow down. Wait a little, then try again.',
	SESSION_REVOKED: 'This session was ended from another device. Log the userbot in again.',
	AUTH_KEY_UNREGISTERED: 'This userbot is no longer logged in. Log it in again.',
	USER_DEACTIVATED_BAN: 'Telegram has banned this account.',
	'Chat not found': 'This chat is not among the account’s chats.',
	'chat_id is required': 'Choose a chat first.',
	'text is required': 'Type a message first.',
	[GatewayErrors.USERBOT_NOT_FOUND]: 'This userbot does not exist (any more) in your company.',
	'No active account found with the given credentials': 'Wrong e-mail or password.',
	'A user with that email already exists.': 'An account with this e-mail exists already: log in instead.',
}

export interface Explained {
	/** The sentence to show. */
	text: string
	/** The code or message it explains, shown in small print; absent when the message was a sentence. */
	code?: string
}

/** `FLOOD_WAIT_30` and `Too Many Requests: retry after 30` both read as the flood sentence. */
export function explain(message: string): Explained {
	const trimmed = message.trim()
	const exact = SENTENCES[trimmed]
	if (exact) return { text: exact, code: trimmed }
	const flood = /^FLOOD_WAIT_(\d+)$|retry after (\d+)|Expected available in (\d+) seconds/i.exec(trimmed)
	if (flood) {
		const seconds = flood[1] ?? flood[2] ?? flood[3]
		return { text: `Too many tries: wait ${seconds} seconds, then try again.`, code: trimmed }
	}
	const wrongState = /^userbot is not waiting for (.+) \(state: (\w+)\)$/.exec(trimmed)
	if (wrongState) {
		return {
			text: `This userbot is not waiting for ${wrongState[1]} now: ${stateWords(wrongState[2] ?? '')}.`,
			code: trimmed,
		}
	}
	// An upper-case code with no sentence of ours: say what kind of answer it is.
	if (/^[A-Z][A-Z0-9_]+$/.test(trimmed)) return { text: 'Telegram refused this.', code: trimmed }
	return { text: trimmed }
}

const STATES: Record<string, string> = {
	authorizationStateWaitTdlibParameters: 'starting',
	authorizationStateWaitPhoneNumber: 'not logged in: waiting for a phone number',
	authorizationStateWaitCode: 'waiting for the code Telegram sent',
	authorizationStateWaitPassword: 'waiting for the two-step verification password',
	authorizationStateWaitRegistration: 'waiting for a name for the new account',
	authorizationStateWaitOtherDeviceConfirmation: 'waiting for the QR code to be scanned',
	authorizationStateWaitEmailAddress: 'waiting for an e-mail address (finish in a Telegram app)',
	authorizationStateWaitEmailCode: 'waiting for an e-mail code (finish in a Telegram app)',
	authorizationStateWaitPremiumPurchase: 'waiting for Telegram Premium (finish in a Telegram app)',
	authorizationStateReady: 'logged in',
	authorizationStateLoggingOut: 'logging out',
	authorizationStateClosing: 'closing',
	authorizationStateClosed: 'closed',
}

/** A TDLib authorization state in words. */
export function stateWords(state: string): string {
	return STATES[state] ?? state.replace(/^authorizationState/, '').toLowerCase()
}

const HEALTH: Record<string, string> = {
	active: 'Healthy',
	cooling_down: 'Cooling down (Telegram asked to slow down)',
	limited: 'Limited by Telegram',
	frozen: 'Frozen by Telegram',
	banned: 'Banned by Telegram',
	revoked: 'Session ended from another device',
	restarting: 'Restarting',
	stopped: 'Stopped',
}

/** An account's health status in words. */
export function healthWords(status: string): string {
	return HEALTH[status] ?? status
}
