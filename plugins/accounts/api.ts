import { Elysia, t } from 'elysia'
import {
	BEARER_OR_SESSION,
	describeRoutes,
	documentedOnly,
	ROUTE_ERRORS,
	RestSchemas as S,
} from 'userbot-gateway/plugin'
import { checkPasswordRoutes } from './routes/check-password'
import { inviteRoutes } from './routes/invites'
import { loginRoutes } from './routes/login'
import { logoutRoutes } from './routes/logout'
import { meRoutes } from './routes/me'
import { registerRoutes } from './routes/register'
import { resetRoutes } from './routes/reset'
import { tokenRoutes } from './routes/tokens'

/**
 * Family A's routes, each one definition (src/http/rest-route.ts) that `build` serves and the
 * OpenAPI document and the typed client read, in the order they are served.
 */
export const accountsRouteList = [
	...meRoutes,
	...registerRoutes,
	...checkPasswordRoutes,
	...loginRoutes,
	...logoutRoutes,
	...resetRoutes,
	...tokenRoutes,
	...inviteRoutes,
] as const

const ID = t.Object({ id: S.PathId() })
const GRANT = t.Object({ id: S.PathId(), permission: S.PermissionName })

/**
 * The route data (docs/plugins.md#routes-as-data): the definitions', then the members' and grants'
 * routes, still written as data beside their handlers (routes/members.ts, routes/member-grants.ts).
 */
export const accountsApi = describeRoutes('accounts-api', accountsRouteList).use(
	new Elysia({ name: 'accounts-members-api' })
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
			response: {
				200: S.Member,
				...ROUTE_ERRORS.badRequest,
				...ROUTE_ERRORS.authed,
				...ROUTE_ERRORS.notFound,
			},
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
		}),
)
