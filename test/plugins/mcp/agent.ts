import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { TestInstance } from '../../helpers'

/** An API key of the owner's company, made as an operator makes one (POST /api/keys/). */
export async function makeKey(t: TestInstance, access: string, scopes: Record<string, unknown> = {}) {
	const res = await fetch(`${t.url}/api/keys/`, {
		method: 'POST',
		headers: { authorization: `Bearer ${access}`, 'content-type': 'application/json' },
		body: JSON.stringify({ name: 'agent', ...scopes }),
	})
	if (res.status !== 201) throw new Error(`key: ${res.status} ${await res.text()}`)
	return ((await res.json()) as { key: string }).key
}

/** The SDK's own client over Streamable HTTP, with the key as its bearer. */
export async function connectAgent(t: TestInstance, key: string): Promise<Client> {
	const client = new Client({ name: 'test-agent', version: '1.0.0' })
	const transport = new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), {
		requestInit: { headers: { authorization: `Bearer ${key}` } },
	})
	await client.connect(transport)
	return client
}

/** A tool result's structured content, the call having succeeded. */
export function structured(result: unknown): Record<string, unknown> {
	const r = result as { isError?: boolean; content?: { text?: string }[]; structuredContent?: unknown }
	if (r.isError) throw new Error(`tool error: ${r.content?.[0]?.text}`)
	return r.structuredContent as Record<string, unknown>
}
