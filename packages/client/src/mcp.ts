/// <reference types="node" />
/**
 * `userbot-gateway-client mcp`: a stdio MCP server for desktop agents (docs/mcp.md#setting-up-an-agent), which
 * hands every JSON-RPC message to the gateway's `/mcp` over Streamable HTTP and back, the API key as
 * the bearer. The gateway decides everything (tools, resources, the key's scopes); this program
 * only carries messages. Both transports are the MCP SDK's (`@modelcontextprotocol/sdk`, an
 * optional dependency of this package, imported only here).
 */
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'

export interface McpProxyOptions {
	/** The gateway (`https://gateway.example.com`), or its `/mcp` address. */
	url: string
	/** The API key, sent as `Authorization: Bearer`. */
	key: string
	/** Where a failure is told, one line each (never the key). Default: stderr. */
	log?: (line: string) => void
}

/** The gateway's `/mcp`, from its address or from that address itself. */
export function mcpEndpoint(url: string): URL {
	const base = new URL(url)
	if (!base.pathname.replace(/\/+$/, '').endsWith('/mcp'))
		base.pathname = `${base.pathname.replace(/\/+$/, '')}/mcp`
	return base
}

/** A failure to reach the gateway, in words of ours: its HTTP status when it answered one. */
function failureText(err: unknown): string {
	const code = (err as { code?: unknown } | null)?.code
	if (typeof code === 'number' && code >= 400)
		return code === 401
			? 'the gateway refused the API key (HTTP 401): check USERBOT_GATEWAY_KEY'
			: `the gateway answered HTTP ${code}`
	return 'the gateway could not be reached'
}

const requestId = (m: JSONRPCMessage) =>
	'method' in m && 'id' in m && m.id !== undefined ? (m.id as string | number) : undefined

/** Carries messages between stdio and the gateway until stdin ends; resolves when both are closed. */
export async function runMcpProxy(opts: McpProxyOptions): Promise<void> {
	const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`))
	const remote = new StreamableHTTPClientTransport(mcpEndpoint(opts.url), {
		requestInit: { headers: { authorization: `Bearer ${opts.key}` } },
	})
	const local = new StdioServerTransport()
	const closed = new Promise<void>((resolve) => {
		local.onclose = () => {
			void remote.terminateSession().finally(() => remote.close().finally(resolve))
		}
	})
	remote.onmessage = (message) => {
		// The version the gateway chose goes on every later request, as the SDK's own client does.
		const result = (message as { result?: { protocolVersion?: unknown } }).result
		if (typeof result?.protocolVersion === 'string') remote.setProtocolVersion(result.protocolVersion)
		void local.send(message)
	}
	remote.onerror = (err) => log(`mcp: ${failureText(err)}`)
	local.onmessage = (message) => {
		remote.send(message).catch((err: unknown) => {
			const text = failureText(err)
			const id = requestId(message)
			// A request is answered, so that the agent is not left waiting; a notification is only told.
			if (id !== undefined) void local.send({ jsonrpc: '2.0', id, error: { code: -32000, message: text } })
			else log(`mcp: ${text}`)
		})
	}
	await remote.start()
	await local.start()
	process.stdin.once('end', () => void local.close())
	await closed
}
