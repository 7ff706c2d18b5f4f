import { HttpError } from 'userbot-gateway/plugin'

/**
 * Family B's wire strings and reason codes (docs/rest.md#rest-login-against-a-main-server-family-b), in one
 * place. Every refusal by the access rules is 403 `{"detail": "Permission denied", "code": <reason>}`;
 * docs/rest.md#rest-login-against-a-main-server-family-b lists the reasons.
 */
export const REFUSALS = {
	/** The account was switched off on this server (the main server still accepts it). */
	account_inactive: 'account_inactive',
	/** The main server puts the account in no company. */
	no_company: 'no_company',
	/** The account's company (owned or belonged to) is switched off on the main server. */
	company_inactive: 'company_inactive',
	/** A non-owner whose work status does not allow work (On Leave, Dismissed, ...). */
	status_not_allowed: 'status_not_allowed',
	/** An account of this server has the e-mail and is not the main server's account: never merged. */
	account_conflict: 'account_conflict',
} as const

export type Refusal = keyof typeof REFUSALS

export const MESSAGES = {
	permissionDenied: 'Permission denied',
	mainUnavailable: 'Main server unavailable',
	loggedOut: 'Successfully logged out.',
	loggedOutLocally:
		'Logged out on this server; the main server could not be reached, so its session may still be active.',
} as const

export const refused = (reason: Refusal) =>
	new HttpError(403, { detail: MESSAGES.permissionDenied, code: REFUSALS[reason] })

export const mainUnavailable = () => new HttpError(502, { detail: MESSAGES.mainUnavailable })
