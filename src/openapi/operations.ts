/**
 * What the OpenAPI document says about each operation beyond its schemas, so that the standard
 * linters (Spectral's `spectral:oas`, Redocly's `recommended`) pass it: a readable operation id, a
 * description, a declared tag, an answer for every operation and `security: []` on public routes.
 * docs/api-lint.md tells how CI runs the linters.
 */

type Operation = Record<string, unknown>

/** Readable ids by `method path` (OpenAPI's `{param}` form); a plugin's own route keeps Elysia's. */
export const OPERATION_IDS: Readonly<Record<string, string>> = {
	'get /health': 'getHealth',
	'post /accounts/register/': 'registerUser',
	'post /accounts/check-password/': 'checkPassword',
	'post /accounts/login/': 'logIn',
	'post /accounts/logout/': 'logOut',
	'post /accounts/request-reset/': 'requestPasswordReset',
	'post /accounts/reset-password/': 'resetPassword',
	'post /accounts/token/': 'obtainTokenPair',
	'post /accounts/token/refresh/': 'refreshTokenPair',
	'post /accounts/token/blacklist/': 'revokeRefreshToken',
	'get /accounts/me/': 'getMe',
	'post /accounts/invites/': 'createInvite',
	'get /accounts/invites/': 'listInvites',
	'post /accounts/invites/{id}/revoke/': 'revokeInvite',
	'get /accounts/statuses/': 'listWorkStatuses',
	'get /accounts/members/': 'listMembers',
	'post /accounts/members/{id}/status/': 'setMemberStatus',
	'delete /accounts/members/{id}/': 'removeMember',
	'get /accounts/permissions/': 'listPermissions',
	'get /accounts/members/{id}/grants/': 'listMemberGrants',
	'post /accounts/members/{id}/grants/': 'grantMemberPermission',
	'delete /accounts/members/{id}/grants/{permission}/': 'revokeMemberPermission',
	'post /api/accounts/login/': 'logInOnMainServer',
	'post /api/accounts/logout/': 'logOutOnMainServer',
	'get /api/userbots/': 'listUserbots',
	'post /api/userbots/': 'createUserbot',
	'get /api/userbots/{id}/': 'getUserbot',
	'delete /api/userbots/{id}/': 'deleteUserbot',
	'post /api/userbots/{id}/phone/': 'submitUserbotPhone',
	'post /api/userbots/{id}/code/': 'submitUserbotCode',
	'post /api/userbots/{id}/password/': 'submitUserbotPassword',
	'post /api/userbots/{id}/register/': 'registerUserbotAccount',
	'post /api/userbots/{id}/qr/': 'requestUserbotQrLink',
	'post /api/userbots/{id}/files/': 'uploadUserbotFile',
	'get /api/userbots/{id}/files/{file_id}': 'downloadUserbotFile',
	'get /api/webhooks/': 'listWebhooks',
	'post /api/webhooks/': 'createWebhook',
	'get /api/webhooks/{id}/': 'getWebhook',
	'patch /api/webhooks/{id}/': 'updateWebhook',
	'delete /api/webhooks/{id}/': 'deleteWebhook',
	'post /api/webhooks/{id}/rotate-secret/': 'rotateWebhookSecret',
	'post /api/webhooks/{id}/test/': 'testWebhook',
	'get /api/webhooks/{id}/deliveries/': 'listWebhookDeliveries',
	'post /api/webhooks/{id}/replay/': 'replayWebhookEvents',
	'get /api/keys/': 'listApiKeys',
	'post /api/keys/': 'createApiKey',
	'delete /api/keys/{id}/': 'revokeApiKey',
	'get /api/audit/': 'listAuditLog',
	'get /api/commands/': 'getCommandCatalog',
	'get /api/asyncapi.json': 'getAsyncApiDocument',
	'get /api/openapi.json': 'getOpenApiDocument',
	'get /api/docs': 'getApiDocsPage',
	'get /': 'getConsolePage',
	'get /reset-password': 'getResetPasswordPage',
	'get /console/app.js': 'getConsoleScript',
	'get /console/app.css': 'getConsoleStyleSheet',
}

/** Every tag an operation may carry, declared with what it groups. */
export const TAGS: ReadonlyArray<{ name: string; description: string }> = [
	{ name: 'health', description: 'Liveness of the server, its database and its supervisor' },
	{ name: 'accounts', description: 'Users, sessions, invites, members and their permissions (family A)' },
	{ name: 'tokens', description: 'JWT pairs for server clients' },
	{ name: 'main-server login', description: "Log-in against a main server's accounts (family B)" },
	{ name: 'userbots', description: "The company's Telegram accounts, their log-in steps and files" },
	{ name: 'webhooks', description: 'Endpoints that receive the userbots’ events, signed' },
	{ name: 'operator', description: 'API keys and the audit log' },
	{ name: 'bot-api', description: "The Telegram Bot API's HTTP interface for a userbot (docs/bot-api.md)" },
	{ name: 'documentation', description: 'The documents that describe this API' },
	{ name: 'console', description: 'The web console' },
	{ name: 'plugins', description: 'Routes of a plugin that does not describe them' },
]

const json = (description: string) => ({
	description,
	content: { 'application/json': { schema: { type: 'object' } } },
})
const text = (type: string, description: string) => ({
	description,
	content: { [type]: { schema: { type: 'string' } } },
})
const unavailable = { '503': text('text/plain', 'The console could not be built') }

/** The routes the core serves itself (no contract describes them). */
export const CORE_DETAILS: Readonly<Record<string, Operation>> = {
	'get /api/commands/': {
		summary: 'The command catalog: every WebSocket command, its input (JSON Schema), result and errors',
		tags: ['documentation'],
		responses: { '200': json('The catalog (docs/commands.json)') },
	},
	'get /api/asyncapi.json': {
		summary: 'The WebSocket channel as an AsyncAPI 3 document',
		tags: ['documentation'],
		responses: { '200': json('The AsyncAPI 3.0 document') },
	},
	'get /api/openapi.json': {
		summary: 'This document',
		tags: ['documentation'],
		responses: { '200': json('The OpenAPI 3.1 document') },
	},
	'get /api/docs': {
		summary: 'This document, to read in a browser',
		tags: ['documentation'],
		responses: { '200': text('text/html', 'A page that shows this document') },
	},
	'get /': {
		summary: 'The web console (HTML)',
		tags: ['console'],
		responses: { '200': text('text/html', "The console's page") },
	},
	'get /reset-password': {
		summary: "The web console's page for an e-mailed reset link (HTML)",
		tags: ['console'],
		responses: { '200': text('text/html', "The console's page") },
	},
	'get /console/app.js': {
		summary: "The web console's script",
		tags: ['console'],
		responses: { '200': text('text/javascript', 'The script'), ...unavailable },
	},
	'get /console/app.css': {
		summary: "The web console's style sheet",
		tags: ['console'],
		responses: { '200': text('text/css', 'The style sheet'), ...unavailable },
	},
}

/** A sentence on who may call it, from its security; the routes with none are public. */
function access(operation: Operation, method: string): string {
	const security = operation.security as unknown[] | undefined
	if (!security?.length) return 'Public: no credentials.'
	const unsafe = !['get', 'head', 'options'].includes(method)
	return `Needs an access token (\`Authorization: Bearer\`) or the session cookie${unsafe ? ', and with the cookie `Origin` or `X-CSRFToken`' : ''}.`
}

/**
 * The operation as the linters want it: its id, a description (its summary and who may call it), a
 * declared tag, `security: []` when public, and an answer even when a plugin describes none. A
 * plugin's own route (not in OPERATION_IDS) is not said to be public: nothing here knows.
 */
export function lintReady(key: string, operation: Operation): Operation {
	const method = key.slice(0, key.indexOf(' '))
	const responses = operation.responses as Record<string, unknown> | undefined
	const id = OPERATION_IDS[key]
	const summary = String(operation.summary ?? '')
	const throttled = responses?.['429'] ? ' Answers 429 to a client that asks too often.' : ''
	const said = id ? `${access(operation, method)}${throttled}` : "A plugin's route."
	return {
		...operation,
		...(id ? { operationId: id, security: operation.security ?? [] } : {}),
		description: `${summary}${summary ? '. ' : ''}${said}`,
		...(operation.tags ? {} : { tags: ['plugins'] }),
		responses:
			responses && Object.keys(responses).length > 0
				? responses
				: { default: { description: "The plugin's answer (not described)" } },
	}
}
