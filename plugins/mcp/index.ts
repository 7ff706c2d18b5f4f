import { Elysia } from 'elysia'
import {
	type AppContext,
	definePlugin,
	MCP_POLICY,
	type Principal,
	policyHook,
	type SettingsOptions,
} from 'userbot-gateway/plugin'
import { makeServer, type RequestAuth } from './server'
import { Sessions } from './sessions'
import { MCP_SETTINGS, type McpConfig } from './settings'
import { Watchers } from './watchers'

/**
 * The MCP server (Model Context Protocol, docs/mcp.md): `/mcp` over Streamable HTTP, for AI agents
 * that use the company's userbots. The credential is an API key as the bearer, and only that
 * (`MCP_POLICY`: the one policy decides, a session or an access token is refused); the key's scopes
 * decide which tools it lists and what each call may do. Tools are the catalog's commands, run
 * through `ctx.runCommand`; resources are each userbot's chats and each chat's history, with
 * subscriptions fed by the live-update hub. The protocol is the SDK's (`@modelcontextprotocol/sdk`).
 */

const JSON_HEADERS = { 'content-type': 'application/json' }

/** A JSON-RPC error answered by the route itself (no session yet, or none of that id). */
const rpcError = (status: number, code: number, message: string) =>
	new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
		status,
		headers: JSON_HEADERS,
	})

/** What the SDK hands the request's handlers: the admitted principal, never the key itself. */
const authInfo = (principal: Principal) => ({
	token: '',
	clientId: `key:${principal.key?.id ?? 0}`,
	scopes: [],
	extra: { principal } satisfies RequestAuth as unknown as Record<string, unknown>,
})

export const NO_SESSION =
	'Bad Request: the Mcp-Session-Id header is required (POST initialize opens a session)'
export const SESSION_NOT_FOUND = 'Session not found'

function mcpRoutes(ctx: AppContext, config: McpConfig) {
	const guard = ctx.auth.guard()
	const watchers = new Watchers(ctx)
	const sessions = new Sessions(config, Date.now, (session) => watchers.drop(session))
	ctx.onClose(() => {
		sessions.close()
		watchers.close()
	})
	const serve = async ({ request }: { request: Request }): Promise<Response> => {
		// The one policy decides (MCP_POLICY): an API key whose owner works, and nothing else.
		const principal = (await guard.admit(MCP_POLICY, { request, server: null, params: {} })) as Principal
		const keyId = principal.key?.id ?? 0
		const id = request.headers.get('mcp-session-id')
		if (id !== null) {
			const session = sessions.find(id, keyId)
			if (!session) return rpcError(404, -32001, SESSION_NOT_FOUND)
			session.principal = principal
			session.lastUsed = Date.now()
			const answer = await session.transport.handleRequest(request, { authInfo: authInfo(principal) })
			if (request.method === 'GET' && answer.ok) sessions.streamOpened(session)
			return answer
		}
		if (request.method !== 'POST') return rpcError(400, -32000, NO_SESSION)
		const refused = sessions.refusal(keyId)
		if (refused) return rpcError(503, -32000, refused)
		const { transport, settle } = await sessions.start(principal, (current) =>
			makeServer(ctx, watchers, current),
		)
		try {
			return await transport.handleRequest(request, { authInfo: authInfo(principal) })
		} finally {
			await settle()
		}
	}
	// Hidden from the OpenAPI document, as `/ws` is: the MCP protocol describes it (docs/mcp.md).
	const hook = { detail: { hide: true }, parse: 'none' as const, ...policyHook(MCP_POLICY) }
	return new Elysia({ name: 'mcp' })
		.post('/mcp', serve, hook)
		.get('/mcp', serve, hook)
		.delete('/mcp', serve, hook)
}

export function mcp(options: SettingsOptions<typeof MCP_SETTINGS.shape> = {}) {
	return definePlugin({
		id: 'mcp',
		settings: MCP_SETTINGS,
		options,
		build: (ctx, config) => mcpRoutes(ctx, config),
	})
}

export const mcpPlugin = mcp()
