/**
 * What the OpenAPI document says about each operation beyond its schemas, so that the standard
 * linters (Spectral's `spectral:oas`, Redocly's `recommended`) pass it: a readable operation id, a
 * description, a declared tag, an answer for every operation and `security: []` on public routes.
 * docs/api-lint.md tells how CI runs the linters.
 */

type Operation = Record<string, unknown>

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

/** A sentence on who may call it, from its security; the routes with none are public. */
function access(operation: Operation, method: string): string {
	const security = operation.security as unknown[] | undefined
	if (!security?.length) return 'Public: no credentials.'
	const unsafe = !['get', 'head', 'options'].includes(method)
	return `Needs an access token (\`Authorization: Bearer\`) or the session cookie${unsafe ? ', and with the cookie `Origin` or `X-CSRFToken`' : ''}.`
}

/**
 * The operation as the linters want it: its id, a description (its summary and who may call it), a
 * declared tag, `security: []` when public, and an answer even when a plugin describes none. `id` is
 * the operation id its definition gives (`detail.operationId`); a plugin's route without one keeps
 * the generator's and is not said to be public: nothing here knows.
 */
export function lintReady(key: string, operation: Operation, id: string | undefined): Operation {
	const method = key.slice(0, key.indexOf(' '))
	const responses = operation.responses as Record<string, unknown> | undefined
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
