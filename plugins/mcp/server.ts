import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
	CallToolRequestSchema,
	ErrorCode,
	ListResourcesRequestSchema,
	ListResourceTemplatesRequestSchema,
	ListToolsRequestSchema,
	McpError,
	ReadResourceRequestSchema,
	SubscribeRequestSchema,
	UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js'
import { type AppContext, GatewayErrors, type Principal } from 'userbot-gateway/plugin'
import { listResources, parseUri, RESOURCE_TEMPLATES, readResource } from './resources'
import type { Session } from './sessions'
import { callTool, toolsFor } from './tools'
import type { Watchers } from './watchers'

/** A resource URI that names no resource of ours. */
export const UNKNOWN_RESOURCE =
	'unknown resource: telegram://userbots/{userbot_id}/chats or telegram://userbots/{userbot_id}/chats/{chat_id}/messages'

/** What the route hands each request's handlers: the principal the policy admitted for it. */
export interface RequestAuth {
	principal: Principal
}

type Extra = { authInfo?: { extra?: Record<string, unknown> }; signal: AbortSignal }

/**
 * One session's MCP server (the SDK's low-level `Server`: our tools' schemas are JSON Schema
 * already): tools and resources for the principal of the request at hand, subscriptions for the
 * session. A failure of ours is answered `internal error`, logged; never a library's message or a
 * stack.
 */
export function makeServer(ctx: AppContext, watchers: Watchers, current: () => Session | undefined): Server {
	const server = new Server(
		// The face's own version: what it offers changes with the catalog, which tools/list tells.
		{ name: 'userbot-gateway', version: '1.0.0' },
		{
			capabilities: { tools: {}, resources: { subscribe: true } },
			instructions:
				"The tools are this gateway's commands for Telegram accounts (userbots): `userbot_id` names the account. The resources are each account's chats and each chat's recent messages; subscribe to a chat's messages to hear of new ones.",
		},
	)
	const principalOf = (extra: Extra): Principal => {
		const principal = (extra.authInfo?.extra as RequestAuth | undefined)?.principal ?? current()?.principal
		if (!principal) throw new McpError(ErrorCode.InvalidRequest, GatewayErrors.INTERNAL)
		return principal
	}
	const guarded =
		<A extends unknown[], R>(what: string, fn: (...args: A) => Promise<R>) =>
		async (...args: A): Promise<R> => {
			try {
				return await fn(...args)
			} catch (err) {
				if (err instanceof McpError) throw err
				ctx.log.error('mcp request failed', { what, error: err instanceof Error ? err : String(err) })
				throw new McpError(ErrorCode.InternalError, GatewayErrors.INTERNAL)
			}
		}
	server.setRequestHandler(
		ListToolsRequestSchema,
		guarded('tools/list', async (_req, extra) => ({ tools: toolsFor(ctx, principalOf(extra)) })),
	)
	server.setRequestHandler(
		CallToolRequestSchema,
		guarded('tools/call', async (req, extra) =>
			callTool(ctx, principalOf(extra), req.params.name, req.params.arguments ?? {}, extra.signal),
		),
	)
	resourceHandlers(ctx, server, watchers, current, principalOf, guarded)
	return server
}

function resourceHandlers(
	ctx: AppContext,
	server: Server,
	watchers: Watchers,
	current: () => Session | undefined,
	principalOf: (extra: Extra) => Principal,
	guarded: <A extends unknown[], R>(
		what: string,
		fn: (...args: A) => Promise<R>,
	) => (...args: A) => Promise<R>,
) {
	const named = (uri: string) => {
		const found = parseUri(uri)
		if (!found) throw new McpError(ErrorCode.InvalidParams, UNKNOWN_RESOURCE)
		return found
	}
	/** A read of the resource: the one check that the principal may read it, as the command asks. */
	const read = async (uri: string, extra: Extra) => {
		const outcome = await readResource(ctx, principalOf(extra), uri, named(uri), extra.signal)
		if (!outcome.ok) throw new McpError(ErrorCode.InvalidParams, outcome.error)
		return outcome.contents
	}
	server.setRequestHandler(
		ListResourceTemplatesRequestSchema,
		guarded('resources/templates/list', async () => ({ resourceTemplates: RESOURCE_TEMPLATES })),
	)
	server.setRequestHandler(
		ListResourcesRequestSchema,
		guarded('resources/list', async (_req, extra) => ({
			resources: await listResources(ctx, principalOf(extra)),
		})),
	)
	server.setRequestHandler(
		ReadResourceRequestSchema,
		guarded('resources/read', async (req, extra) => ({ contents: await read(req.params.uri, extra) })),
	)
	// A subscription is allowed where a read is: it is read once, and refused with the read's error.
	server.setRequestHandler(
		SubscribeRequestSchema,
		guarded('resources/subscribe', async (req, extra) => {
			await read(req.params.uri, extra)
			const session = current()
			if (session) watchers.add(session, req.params.uri)
			return {}
		}),
	)
	server.setRequestHandler(
		UnsubscribeRequestSchema,
		guarded('resources/unsubscribe', async (req) => {
			const session = current()
			if (session) watchers.remove(session, named(req.params.uri) && req.params.uri)
			return {}
		}),
	)
}
