import { Elysia } from 'elysia'
import { BEARER_OR_SESSION, documentedOnly, ROUTE_ERRORS, RestSchemas as S } from 'userbot-gateway/plugin'

/**
 * Family B's routes as data (docs/plugins.md#routes-as-data): path, method, body, answers, summary and
 * auth requirement of each route `build` serves. The OpenAPI document and the typed client read them.
 */

export const apiAccountsApi = new Elysia({ name: 'api-accounts-api' })
	.post('/api/accounts/login/', documentedOnly, {
		body: S.Credentials,
		response: {
			200: S.Session,
			...ROUTE_ERRORS.badRequest,
			...ROUTE_ERRORS.unauthenticated,
			...ROUTE_ERRORS.forbidden,
			...ROUTE_ERRORS.throttled,
			502: S.Detail,
		},
		detail: { summary: "Logs in against the main server's accounts (family B)", tags: ['main-server login'] },
	})
	.post('/api/accounts/logout/', documentedOnly, {
		response: { 200: S.Message, ...ROUTE_ERRORS.authed },
		detail: {
			summary: 'Ends the session here and on the main server',
			tags: ['main-server login'],
			security: BEARER_OR_SESSION,
		},
	})
