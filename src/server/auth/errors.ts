import { HttpError } from '../http/errors'
import { FIELD_MESSAGES } from '../http/field-messages'

/**
 * Wire strings of the auth core (docs/rest.md#conventions, docs/rest.md#rest-accounts-family-a), word for
 * word, in one place.
 */
export const MESSAGES = {
	badCredentials: 'No active account found with the given credentials',
	notAuthenticated: 'Authentication credentials were not provided.',
	tokenNotValid: 'Token is invalid or expired',
	sessionEnded: 'Session has expired, please log in again.',
	csrfCrossSite: 'CSRF Failed: Cross-site request refused.',
	csrfOrigin: 'CSRF Failed: Origin checking failed - the origin is not trusted.',
	csrfMissing: 'CSRF Failed: CSRF token missing or incorrect.',
	permissionDenied: 'You do not have permission to perform this action.',
	/**
	 * The refusal by the access rules of docs/rest.md#rest-login-against-a-main-server-family-b (`code` names
	 * the rule), on every path.
	 */
	accessDenied: 'Permission denied',
	throttled: (seconds: number) => `Request was throttled. Expected available in ${seconds} seconds.`,
	...FIELD_MESSAGES,
	emailTaken: 'A user with that email already exists.',
	invalidResetToken: 'Invalid or expired token.',
	invalidInvite: 'Invalid or expired invite.',
} as const

export const unauthorized = (detail: string = MESSAGES.notAuthenticated, code = 'not_authenticated') =>
	new HttpError(401, { detail, code })

export const tokenNotValid = () =>
	new HttpError(401, { detail: MESSAGES.tokenNotValid, code: 'token_not_valid' })

export const throttled = (retryAfter: number) =>
	new HttpError(
		429,
		{ detail: MESSAGES.throttled(retryAfter), code: 'throttled' },
		{ 'Retry-After': String(retryAfter) },
	)

/**
 * A member whose work status does not allow work (the access rule of
 * docs/rest.md#rest-login-against-a-main-server-family-b, family B's body).
 */
export const statusNotAllowed = () =>
	new HttpError(403, { detail: MESSAGES.accessDenied, code: 'status_not_allowed' })
