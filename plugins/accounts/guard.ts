import type { AuthCore } from '../../src/auth'
import type { AuthenticatedCaller } from '../../src/auth/authenticator'
import { MESSAGES } from '../../src/auth/errors'
import { HttpError } from '../../src/http/errors'

/** The caller, or the 401/403 the authenticator decided, thrown for the error handler. */
export async function requireCaller(core: AuthCore, request: Request): Promise<AuthenticatedCaller> {
	const outcome = await core.resolve(request)
	if (!outcome.ok) throw new HttpError(outcome.status, outcome.body)
	return outcome.caller
}

export async function requireOwner(
	core: AuthCore,
	request: Request,
): Promise<AuthenticatedCaller & { companyId: number }> {
	const caller = await requireCaller(core, request)
	const companyId = caller.principal.companyId
	if (!caller.principal.isOwner || companyId === null) {
		throw new HttpError(403, { detail: MESSAGES.permissionDenied, code: 'permission_denied' })
	}
	return { ...caller, companyId }
}
