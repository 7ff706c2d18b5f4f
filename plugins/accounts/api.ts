import { Elysia, t } from 'elysia'
import { BEARER_OR_SESSION, documentedOnly, ROUTE_ERRORS, RestSchemas as S } from 'userbot-gateway/plugin'

/**
 * Family A's routes as data (docs/plugins.md#routes-as-data): path, method, body, answers, summary and
 * auth requirement of each route `build` serves. The OpenAPI document and the typed client read them.
 */
const ID = t.Object({ id: S.PathId() })
const GRANT = t.Object({ id: S.PathId(), permission: S.PermissionName })

export const accountsApi = new Elysia({ name: 'accounts-api' })
	.post('/accounts/register/', documentedOnly, {
		body: S.Registration,
		response: {
			201: S.Registered,
			...ROUTE_ERRORS.badRequest,
			...ROUTE_ERRORS.throttled,
			...ROUTE_ERRORS.unavailable,
		},
		detail: {
			summary: 'Registers a user: a new company of their own, or the inviting one',
			tags: ['accounts'],
		},
	})
	.post('/accounts/check-password/', documentedOnly, {
		body: S.CheckPassword,
		response: { 200: S.PasswordProblems, 400: S.FieldErrors, ...ROUTE_ERRORS.throttled },
		detail: {
			summary: 'Checks an e-mail and password against the policy, creating nothing',
			tags: ['accounts'],
		},
	})
	.post('/accounts/login/', documentedOnly, {
		body: S.Credentials,
		response: {
			200: S.Session,
			...ROUTE_ERRORS.badRequest,
			...ROUTE_ERRORS.unauthenticated,
			...ROUTE_ERRORS.forbidden,
			...ROUTE_ERRORS.throttled,
		},
		detail: { summary: 'Opens a session: cookies sessionid and csrftoken', tags: ['accounts'] },
	})
	.post('/accounts/logout/', documentedOnly, {
		response: { 200: S.Message, ...ROUTE_ERRORS.authed },
		detail: {
			summary: 'Ends the session and clears its cookies',
			tags: ['accounts'],
			security: BEARER_OR_SESSION,
		},
	})
	.post('/accounts/request-reset/', documentedOnly, {
		body: S.ResetRequest,
		response: { 200: S.ResetAnswer, ...ROUTE_ERRORS.badRequest, ...ROUTE_ERRORS.throttled },
		detail: {
			summary: 'Mails a password reset link (the same answer whether the e-mail exists)',
			tags: ['accounts'],
		},
	})
	.post('/accounts/reset-password/', documentedOnly, {
		body: S.ResetPassword,
		response: {
			200: t.Object({ detail: t.String() }),
			...ROUTE_ERRORS.badRequest,
			...ROUTE_ERRORS.throttled,
		},
		detail: {
			summary: 'Sets a new password with a reset token; every session is revoked',
			tags: ['accounts'],
		},
	})
	.post('/accounts/token/', documentedOnly, {
		body: S.Credentials,
		response: {
			200: S.TokenPair,
			...ROUTE_ERRORS.badRequest,
			...ROUTE_ERRORS.unauthenticated,
			...ROUTE_ERRORS.forbidden,
			...ROUTE_ERRORS.throttled,
		},
		detail: { summary: 'A JWT pair for a server client', tags: ['tokens'] },
	})
	.post('/accounts/token/refresh/', documentedOnly, {
		body: S.Refresh,
		response: {
			200: S.TokenPair,
			...ROUTE_ERRORS.badRequest,
			...ROUTE_ERRORS.unauthenticated,
			...ROUTE_ERRORS.forbidden,
		},
		detail: { summary: 'Rotates a refresh token; reusing a used one revokes its family', tags: ['tokens'] },
	})
	.post('/accounts/token/blacklist/', documentedOnly, {
		body: S.Refresh,
		response: { 200: t.Object({}), ...ROUTE_ERRORS.badRequest, ...ROUTE_ERRORS.unauthenticated },
		detail: { summary: 'Revokes a refresh token and its family', tags: ['tokens'] },
	})
	.get('/accounts/me/', documentedOnly, {
		response: { 200: S.Profile, ...ROUTE_ERRORS.authed },
		detail: {
			summary: "The caller's profile, work status and company",
			tags: ['accounts'],
			security: BEARER_OR_SESSION,
		},
	})
	.post('/accounts/invites/', documentedOnly, {
		body: S.InviteRequest,
		response: { 201: S.InviteCreated, ...ROUTE_ERRORS.badRequest, ...ROUTE_ERRORS.authed },
		detail: { summary: 'An invite to the company (owners)', tags: ['accounts'], security: BEARER_OR_SESSION },
	})
	.get('/accounts/invites/', documentedOnly, {
		response: { 200: t.Array(S.Invite), ...ROUTE_ERRORS.authed },
		detail: {
			summary: "The company's invites, without tokens (owners)",
			tags: ['accounts'],
			security: BEARER_OR_SESSION,
		},
	})
	.post('/accounts/invites/:id/revoke/', documentedOnly, {
		params: ID,
		response: { 200: S.Invite, ...ROUTE_ERRORS.authed, ...ROUTE_ERRORS.notFound },
		detail: { summary: 'Revokes an invite (owners)', tags: ['accounts'], security: BEARER_OR_SESSION },
	})
	.get('/accounts/statuses/', documentedOnly, {
		response: { 200: t.Array(S.WorkStatus), ...ROUTE_ERRORS.authed },
		detail: {
			summary: 'The work statuses of this deployment',
			tags: ['accounts'],
			security: BEARER_OR_SESSION,
		},
	})
	.get('/accounts/members/', documentedOnly, {
		response: { 200: t.Array(S.Member), ...ROUTE_ERRORS.authed },
		detail: {
			summary: "The company's members with their work statuses (owners)",
			tags: ['accounts'],
			security: BEARER_OR_SESSION,
		},
	})
	.post('/accounts/members/:id/status/', documentedOnly, {
		params: ID,
		body: S.StatusChange,
		response: { 200: S.Member, ...ROUTE_ERRORS.badRequest, ...ROUTE_ERRORS.authed, ...ROUTE_ERRORS.notFound },
		detail: {
			summary: "Sets a member's work status by its code (owners)",
			tags: ['accounts'],
			security: BEARER_OR_SESSION,
		},
	})
	.delete('/accounts/members/:id/', documentedOnly, {
		params: ID,
		response: { 204: t.Void(), 400: S.Detail, ...ROUTE_ERRORS.authed, ...ROUTE_ERRORS.notFound },
		detail: {
			summary: 'Removes a member from the company, ending their sessions; their userbots stay (owners)',
			tags: ['accounts'],
			security: BEARER_OR_SESSION,
		},
	})
	.get('/accounts/permissions/', documentedOnly, {
		response: { 200: t.Array(S.PermissionInfo), ...ROUTE_ERRORS.authed },
		detail: {
			summary: 'The owner-only permissions an owner may grant a member',
			tags: ['accounts'],
			security: BEARER_OR_SESSION,
		},
	})
	.get('/accounts/members/:id/grants/', documentedOnly, {
		params: ID,
		response: { 200: t.Array(S.Grant), ...ROUTE_ERRORS.authed, ...ROUTE_ERRORS.notFound },
		detail: {
			summary: "A member's granted permissions (owners)",
			tags: ['accounts'],
			security: BEARER_OR_SESSION,
		},
	})
	.post('/accounts/members/:id/grants/', documentedOnly, {
		params: ID,
		body: S.GrantRequest,
		response: {
			201: S.Grant,
			200: S.Grant,
			...ROUTE_ERRORS.badRequest,
			...ROUTE_ERRORS.authed,
			...ROUTE_ERRORS.notFound,
		},
		detail: {
			summary: 'Grants a member an owner-only permission (owners; 200 when it was granted already)',
			tags: ['accounts'],
			security: BEARER_OR_SESSION,
		},
	})
	.delete('/accounts/members/:id/grants/:permission/', documentedOnly, {
		params: GRANT,
		response: { 204: t.Void(), ...ROUTE_ERRORS.authed, ...ROUTE_ERRORS.notFound },
		detail: {
			summary: 'Revokes a granted permission (owners)',
			tags: ['accounts'],
			security: BEARER_OR_SESSION,
		},
	})
