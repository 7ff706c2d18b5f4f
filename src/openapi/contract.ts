import { Elysia, t } from 'elysia'
import { operatorContract } from './operator-contract'
import * as S from './schemas'
import { webhookContract } from './webhooks'

/**
 * The REST API as a contract: every route the built-in plugins serve, with its request body and its
 * answers (success and errors) as TypeBox schemas, and a summary. Never served: the real routes read
 * their bodies themselves (`parse: 'none'`, DRF's answers). The OpenAPI document attaches these
 * schemas to the real routes (openapi.ts); `userbot-gateway/client`'s Eden client is typed by this
 * instance. test/openapi checks the real answers against it.
 */
const unreachable = (): never => {
	throw new Error('the REST contract is documentation, never served')
}

const ID = t.Object({ id: S.PathId() })
const GRANT = t.Object({ id: S.PathId(), permission: S.PermissionName })
const bearerOrSession: Array<Record<string, string[]>> = [{ bearer: [] }, { session: [] }]

const errors = {
	badRequest: { 400: S.FieldErrors },
	unauthenticated: { 401: S.Detail },
	forbidden: { 403: S.Detail },
	notFound: { 404: S.Detail },
	throttled: { 429: S.Detail },
	unavailable: { 503: S.Detail },
}
const authed = { ...errors.unauthenticated, ...errors.forbidden }

export const restContract = new Elysia({ name: 'rest-contract' })
	.get('/health', unreachable, {
		response: { 200: S.Health, 503: S.Health },
		detail: { summary: 'Liveness: the database (probed by a write) and the supervisor', tags: ['health'] },
	})
	.post('/accounts/register/', unreachable, {
		body: S.Registration,
		response: { 201: S.Registered, ...errors.badRequest, ...errors.throttled, ...errors.unavailable },
		detail: {
			summary: 'Registers a user: a new company of their own, or the inviting one',
			tags: ['accounts'],
		},
	})
	.post('/accounts/check-password/', unreachable, {
		body: S.CheckPassword,
		response: { 200: S.PasswordProblems, 400: S.FieldErrors, ...errors.throttled },
		detail: {
			summary: 'Checks an e-mail and password against the policy, creating nothing',
			tags: ['accounts'],
		},
	})
	.post('/accounts/login/', unreachable, {
		body: S.Credentials,
		response: {
			200: S.Session,
			...errors.badRequest,
			...errors.unauthenticated,
			...errors.forbidden,
			...errors.throttled,
		},
		detail: { summary: 'Opens a session: cookies sessionid and csrftoken', tags: ['accounts'] },
	})
	.post('/accounts/logout/', unreachable, {
		response: { 200: S.Message, ...authed },
		detail: {
			summary: 'Ends the session and clears its cookies',
			tags: ['accounts'],
			security: bearerOrSession,
		},
	})
	.post('/accounts/request-reset/', unreachable, {
		body: S.ResetRequest,
		response: { 200: S.ResetAnswer, ...errors.badRequest, ...errors.throttled },
		detail: {
			summary: 'Mails a password reset link (the same answer whether the e-mail exists)',
			tags: ['accounts'],
		},
	})
	.post('/accounts/reset-password/', unreachable, {
		body: S.ResetPassword,
		response: { 200: t.Object({ detail: t.String() }), ...errors.badRequest, ...errors.throttled },
		detail: {
			summary: 'Sets a new password with a reset token; every session is revoked',
			tags: ['accounts'],
		},
	})
	.post('/accounts/token/', unreachable, {
		body: S.Credentials,
		response: {
			200: S.TokenPair,
			...errors.badRequest,
			...errors.unauthenticated,
			...errors.forbidden,
			...errors.throttled,
		},
		detail: { summary: 'A JWT pair for a server client', tags: ['tokens'] },
	})
	.post('/accounts/token/refresh/', unreachable, {
		body: S.Refresh,
		response: { 200: S.TokenPair, ...errors.badRequest, ...errors.unauthenticated, ...errors.forbidden },
		detail: { summary: 'Rotates a refresh token; reusing a used one revokes its family', tags: ['tokens'] },
	})
	.post('/accounts/token/blacklist/', unreachable, {
		body: S.Refresh,
		response: { 200: t.Object({}), ...errors.badRequest, ...errors.unauthenticated },
		detail: { summary: 'Revokes a refresh token and its family', tags: ['tokens'] },
	})
	.get('/accounts/me/', unreachable, {
		response: { 200: S.Profile, ...authed },
		detail: {
			summary: "The caller's profile, work status and company",
			tags: ['accounts'],
			security: bearerOrSession,
		},
	})
	.post('/accounts/invites/', unreachable, {
		body: S.InviteRequest,
		response: { 201: S.InviteCreated, ...errors.badRequest, ...authed },
		detail: { summary: 'An invite to the company (owners)', tags: ['accounts'], security: bearerOrSession },
	})
	.get('/accounts/invites/', unreachable, {
		response: { 200: t.Array(S.Invite), ...authed },
		detail: {
			summary: "The company's invites, without tokens (owners)",
			tags: ['accounts'],
			security: bearerOrSession,
		},
	})
	.post('/accounts/invites/:id/revoke/', unreachable, {
		params: ID,
		response: { 200: S.Invite, ...authed, ...errors.notFound },
		detail: { summary: 'Revokes an invite (owners)', tags: ['accounts'], security: bearerOrSession },
	})
	.get('/accounts/statuses/', unreachable, {
		response: { 200: t.Array(S.WorkStatus), ...authed },
		detail: {
			summary: 'The work statuses of this deployment',
			tags: ['accounts'],
			security: bearerOrSession,
		},
	})
	.get('/accounts/members/', unreachable, {
		response: { 200: t.Array(S.Member), ...authed },
		detail: {
			summary: "The company's members with their work statuses (owners)",
			tags: ['accounts'],
			security: bearerOrSession,
		},
	})
	.post('/accounts/members/:id/status/', unreachable, {
		params: ID,
		body: S.StatusChange,
		response: { 200: S.Member, ...errors.badRequest, ...authed, ...errors.notFound },
		detail: {
			summary: "Sets a member's work status by its code (owners)",
			tags: ['accounts'],
			security: bearerOrSession,
		},
	})
	.delete('/accounts/members/:id/', unreachable, {
		params: ID,
		response: { 204: t.Void(), 400: S.Detail, ...authed, ...errors.notFound },
		detail: {
			summary: 'Removes a member from the company, ending their sessions; their userbots stay (owners)',
			tags: ['accounts'],
			security: bearerOrSession,
		},
	})
	.get('/accounts/permissions/', unreachable, {
		response: { 200: t.Array(S.PermissionInfo), ...authed },
		detail: {
			summary: 'The owner-only permissions an owner may grant a member',
			tags: ['accounts'],
			security: bearerOrSession,
		},
	})
	.get('/accounts/members/:id/grants/', unreachable, {
		params: ID,
		response: { 200: t.Array(S.Grant), ...authed, ...errors.notFound },
		detail: {
			summary: "A member's granted permissions (owners)",
			tags: ['accounts'],
			security: bearerOrSession,
		},
	})
	.post('/accounts/members/:id/grants/', unreachable, {
		params: ID,
		body: S.GrantRequest,
		response: { 201: S.Grant, 200: S.Grant, ...errors.badRequest, ...authed, ...errors.notFound },
		detail: {
			summary: 'Grants a member an owner-only permission (owners; 200 when it was granted already)',
			tags: ['accounts'],
			security: bearerOrSession,
		},
	})
	.delete('/accounts/members/:id/grants/:permission/', unreachable, {
		params: GRANT,
		response: { 204: t.Void(), ...authed, ...errors.notFound },
		detail: {
			summary: 'Revokes a granted permission (owners)',
			tags: ['accounts'],
			security: bearerOrSession,
		},
	})
	.post('/api/accounts/login/', unreachable, {
		body: S.Credentials,
		response: {
			200: S.Session,
			...errors.badRequest,
			...errors.unauthenticated,
			...errors.forbidden,
			...errors.throttled,
			502: S.Detail,
		},
		detail: { summary: "Logs in against the main server's accounts (family B)", tags: ['main-server login'] },
	})
	.post('/api/accounts/logout/', unreachable, {
		response: { 200: S.Message, ...authed },
		detail: {
			summary: 'Ends the session here and on the main server',
			tags: ['main-server login'],
			security: bearerOrSession,
		},
	})
	.get('/api/userbots/', unreachable, {
		response: { 200: t.Array(S.Userbot), ...authed },
		detail: { summary: "The company's userbots", tags: ['userbots'], security: bearerOrSession },
	})
	.post('/api/userbots/', unreachable, {
		body: S.UserbotCreate,
		response: { 201: S.UserbotCreated, ...errors.badRequest, ...authed, ...errors.unavailable },
		detail: {
			summary: 'Adds a userbot and starts its TDLib client',
			tags: ['userbots'],
			security: bearerOrSession,
		},
	})
	.get('/api/userbots/:id/', unreachable, {
		params: ID,
		response: { 200: S.Userbot, ...authed, ...errors.notFound },
		detail: { summary: 'One userbot', tags: ['userbots'], security: bearerOrSession },
	})
	.delete('/api/userbots/:id/', unreachable, {
		params: ID,
		response: { 204: t.Void(), ...authed, ...errors.notFound },
		detail: {
			summary: 'Deletes a userbot: logged out of Telegram, its files removed',
			tags: ['userbots'],
			security: bearerOrSession,
		},
	})
	.put('/api/userbots/:id/proxy/', unreachable, {
		params: ID,
		body: S.ProxySet,
		response: { 200: S.ProxyView, ...errors.badRequest, ...authed, ...errors.notFound },
		detail: {
			summary: "Sets the userbot's proxy: its client starts again behind it, then it is checked",
			tags: ['userbots'],
			security: bearerOrSession,
		},
	})
	.delete('/api/userbots/:id/proxy/', unreachable, {
		params: ID,
		response: { 204: t.Void(), ...authed, ...errors.notFound },
		detail: {
			summary: "Removes the userbot's proxy: its client starts again without one",
			tags: ['userbots'],
			security: bearerOrSession,
		},
	})
	.post('/api/userbots/:id/proxy/check/', unreachable, {
		params: ID,
		response: { 200: S.ProxyView, ...authed, ...errors.notFound },
		detail: {
			summary: "Checks the userbot's proxy again (TDLib's pingProxy)",
			tags: ['userbots'],
			security: bearerOrSession,
		},
	})
	.post('/api/userbots/:id/phone/', unreachable, {
		params: ID,
		body: S.PhoneNumber,
		response: {
			200: S.AuthorizationState,
			400: t.Union([S.FieldErrors, S.Detail]),
			...authed,
			...errors.notFound,
		},
		detail: { summary: 'Log-in step: the phone number', tags: ['userbots'], security: bearerOrSession },
	})
	.post('/api/userbots/:id/code/', unreachable, {
		params: ID,
		body: S.Code,
		response: {
			200: S.AuthorizationState,
			400: t.Union([S.FieldErrors, S.Detail]),
			...authed,
			...errors.notFound,
		},
		detail: { summary: 'Log-in step: the code Telegram sent', tags: ['userbots'], security: bearerOrSession },
	})
	.post('/api/userbots/:id/password/', unreachable, {
		params: ID,
		body: S.TwoFactorPassword,
		response: {
			200: S.AuthorizationState,
			400: t.Union([S.FieldErrors, S.Detail]),
			...authed,
			...errors.notFound,
		},
		detail: {
			summary: "Log-in step: the account's 2FA password",
			tags: ['userbots'],
			security: bearerOrSession,
		},
	})
	.post('/api/userbots/:id/register/', unreachable, {
		params: ID,
		body: S.NewAccount,
		response: {
			200: S.AuthorizationState,
			400: t.Union([S.FieldErrors, S.Detail]),
			...authed,
			...errors.notFound,
		},
		detail: { summary: 'Log-in step: names a new account', tags: ['userbots'], security: bearerOrSession },
	})
	.post('/api/userbots/:id/qr/', unreachable, {
		params: ID,
		response: { 200: S.QrLink, 400: S.Detail, ...authed, ...errors.notFound },
		detail: { summary: 'Log-in by QR code: the link to show', tags: ['userbots'], security: bearerOrSession },
	})
	.post('/api/userbots/:id/files/', unreachable, {
		params: ID,
		body: S.Upload,
		response: { 201: S.Uploaded, 400: S.Detail, ...authed, ...errors.notFound, 413: S.Detail },
		detail: {
			summary: 'Uploads a media file for commands ({"upload": "<file>"})',
			tags: ['userbots'],
			security: bearerOrSession,
		},
	})
	.get('/api/userbots/:id/files/:file_id', unreachable, {
		params: t.Object({
			id: S.PathId(),
			file_id: t.Unsafe<number>({ type: 'integer', format: 'int32', description: "TDLib's file id" }),
		}),
		response: {
			200: S.FileBytes,
			202: S.FileProgress,
			206: S.FileBytes,
			304: t.Void(),
			...errors.badRequest,
			...authed,
			...errors.notFound,
			413: S.Detail,
			416: S.Detail,
		},
		detail: {
			summary:
				"Streams a file of the userbot's account by TDLib's file id (Range, ETag); 202 with the progress while TDLib downloads it",
			tags: ['userbots'],
			security: bearerOrSession,
		},
	})
	.use(webhookContract)

	.use(operatorContract)
/** The REST app's type, for Eden (`treaty<RestApi>(url)`). */
export type RestApi = typeof restContract
