import {
	type AuthenticatedCaller,
	HttpError,
	AUTH_MESSAGES as MESSAGES,
	type RestContext,
} from 'userbot-gateway/plugin'

/** The caller, or the 401/403 the authenticator decided, thrown for the error handler. */
export async function requireCaller(ctx: RestContext, request: Request): Promise<AuthenticatedCaller> {
	const outcome = await ctx.auth.resolve(request)
	if (!outcome.ok) throw new HttpError(outcome.status, outcome.body)
	return outcome.caller
}

export async function requireOwner(
	ctx: RestContext,
	request: Request,
): Promise<AuthenticatedCaller & { companyId: number }> {
	const caller = await requireCaller(ctx, request)
	const companyId = caller.principal.companyId
	if (!caller.principal.isOwner || companyId === null) {
		throw new HttpError(403, { detail: MESSAGES.permissionDenied, code: 'permission_denied' })
	}
	return { ...caller, companyId }
}
