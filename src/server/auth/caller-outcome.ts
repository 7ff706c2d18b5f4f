import { MESSAGES } from './errors'
import type { Profile } from './profiles'
import type { AuthOutcome, Credential, Principal } from './types'

export interface AuthenticatedCaller {
	principal: Principal
	profile: Profile
	/** The session's cookie value when the caller came by session. */
	sessionId: string | null
	credential: Credential
}

export type CallerOutcome = { ok: true; caller: AuthenticatedCaller } | Extract<AuthOutcome, { ok: false }>

/** The refusals of a caller's credentials, worded as family B's access rules word them. */
export const notAuthenticated = {
	ok: false,
	status: 401,
	body: { detail: MESSAGES.notAuthenticated, code: 'not_authenticated' },
} as const
export const tokenInvalid = {
	ok: false,
	status: 401,
	body: { detail: MESSAGES.tokenNotValid, code: 'token_not_valid' },
} as const
export const sessionEnded = {
	ok: false,
	status: 401,
	body: { detail: MESSAGES.sessionEnded, code: 'session_expired' },
} as const
export const keyForbidden = {
	ok: false,
	status: 403,
	body: { detail: MESSAGES.permissionDenied, code: 'key_scope' },
} as const
