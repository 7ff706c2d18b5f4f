/**
 * What only a company's owner may do, unless the owner grants it to a member: the powers that
 * create or destroy what the company holds, or change a Telegram account itself rather than use it.
 * Each REST route and each command that needs one names it in its policy entry (`permission` of a
 * `manage` action, ./entry.ts), and `can` (./can.ts) is the one check, made against the principal,
 * never against the kind of credential: a session, a bearer token, or an API key acting as its owner.
 */
export const PERMISSIONS = {
	'userbots.manage': "Create and delete the company's userbots.",
	'security.password':
		'Change, remove or verify the 2FA password, change and confirm the recovery e-mail, and recover a forgotten password.',
	'security.account_ttl': "Set the Telegram account's self-destruct period.",
	'sessions.terminate': "End the Telegram account's other sessions (devices).",
	'privacy.change': "Change the Telegram account's privacy settings.",
	'chats.transfer_ownership': 'Transfer the ownership of a chat to another user.',
} as const

export type Permission = keyof typeof PERMISSIONS

export const PERMISSION_NAMES = Object.keys(PERMISSIONS) as readonly Permission[]

export function isPermission(value: unknown): value is Permission {
	return typeof value === 'string' && Object.hasOwn(PERMISSIONS, value)
}
