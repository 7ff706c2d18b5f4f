import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { eq } from 'drizzle-orm'
import { company } from '../../../db/schema'
import { WWW_AUTHENTICATE } from '../../../src/server/http/errors'
import { createMessagingFixture, type MessagingFixture, registerUser, sessionCookie } from '../../helpers-ws'
import { connectAgent, makeKey, structured } from './agent'

/**
 * Who gets in at `/mcp` and what each key's agent sees (docs/mcp.md#the-key): an API key as the
 * bearer and nothing else; a `read_only` key's tools are the reads, a key of one group that group's;
 * sessions belong to their key and are capped (here MCP_SESSIONS_PER_KEY=2).
 */
let f: MessagingFixture
const agents: Client[] = []
const agent = async (key: string) => {
	const client = await connectAgent(f.t, key)
	agents.push(client)
	return client
}
beforeAll(async () => {
	f = await createMessagingFixture({ MCP_SESSIONS_PER_KEY: '2' })
})
afterAll(async () => {
	for (const a of agents) await a.close()
	await f.stop()
})

const INITIALIZE = {
	jsonrpc: '2.0',
	id: 1,
	method: 'initialize',
	params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
}
const post = (headers: Record<string, string>, body: unknown = INITIALIZE) =>
	fetch(`${f.t.url}/mcp`, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			accept: 'application/json, text/event-stream',
			origin: f.t.url,
			...headers,
		},
		body: JSON.stringify(body),
	})

describe('the credential', () => {
	it('is refused 401 with the challenge: none, a bad bearer, an access token (JWT), a session cookie', async () => {
		const cookie = await sessionCookie(f.t, f.alice)
		for (const headers of [
			{},
			{ authorization: 'Bearer ubg_not-a-key' },
			{ authorization: `Bearer ${f.alice.access}` },
			{ cookie },
		] as Record<string, string>[]) {
			const res = await post(headers)
			expect([res.status, res.headers.get('www-authenticate')]).toEqual([401, WWW_AUTHENTICATE])
			expect(res.headers.get('mcp-session-id')).toBeNull()
		}
		for (const method of ['GET', 'DELETE']) {
			const res = await fetch(`${f.t.url}/mcp`, { method, headers: { cookie, origin: f.t.url } })
			expect(res.status).toBe(401)
		}
	})

	it('is an API key as the bearer: its session answers only that key (another key finds no such session)', async () => {
		const key = await makeKey(f.t, f.alice.access)
		const res = await post({ authorization: `Bearer ${key}` })
		expect(res.status).toBe(200)
		const id = res.headers.get('mcp-session-id') ?? ''
		expect(id).not.toBe('')
		const other = await makeKey(f.t, f.alice.access)
		const ping = { jsonrpc: '2.0', id: 2, method: 'ping' }
		const stranger = await post({ authorization: `Bearer ${other}`, 'mcp-session-id': id }, ping)
		expect(stranger.status).toBe(404)
		expect(((await stranger.json()) as { error: { message: string } }).error.message).toBe(
			'Session not found',
		)
		const without = await fetch(`${f.t.url}/mcp`, { headers: { authorization: `Bearer ${key}` } })
		expect(without.status).toBe(400)
		const ended = await fetch(`${f.t.url}/mcp`, {
			method: 'DELETE',
			headers: { authorization: `Bearer ${key}`, 'mcp-session-id': id },
		})
		expect(ended.status).toBe(200)
		const gone = await post({ authorization: `Bearer ${key}`, 'mcp-session-id': id }, ping)
		expect(gone.status).toBe(404)
	})

	it('refuses a key revoked during its session at its next request', async () => {
		const res = await fetch(`${f.t.url}/api/keys/`, {
			method: 'POST',
			headers: { authorization: `Bearer ${f.alice.access}`, 'content-type': 'application/json' },
			body: JSON.stringify({ name: 'revoked agent' }),
		})
		const made = (await res.json()) as { id: number; key: string }
		const client = await agent(made.key)
		expect((await client.listTools()).tools.length).toBeGreaterThan(0)
		const revoked = await fetch(`${f.t.url}/api/keys/${made.id}/`, {
			method: 'DELETE',
			headers: { authorization: `Bearer ${f.alice.access}` },
		})
		expect(revoked.status).toBe(204)
		await expect(client.listTools()).rejects.toMatchObject({ code: 401 })
		const raw = await post({ authorization: `Bearer ${made.key}` })
		expect(raw.status).toBe(401)
	})

	it("refuses the key of a company switched off, in the policy's words (403 company_inactive)", async () => {
		const off = await registerUser(f.t, 'mcp-off@example.com')
		const key = await makeKey(f.t, off.access)
		expect((await post({ authorization: `Bearer ${key}` })).status).toBe(200)
		// No route switches a company off: an administrator writes the database.
		await f.t.ctx.db.update(company).set({ active: false }).where(eq(company.id, off.companyId))
		f.t.auth.invalidateUser(off.userId)
		const res = await post({ authorization: `Bearer ${key}` })
		expect([res.status, ((await res.json()) as { code?: string }).code]).toEqual([403, 'company_inactive'])
	})
})

describe("the key's scopes", () => {
	it('a read_only key lists only the reads, and a send it calls anyway is refused', async () => {
		const reader = await agent(await makeKey(f.t, f.alice.access, { read_only: true }))
		const { tools } = await reader.listTools()
		const reads = f.t.catalog.commands.filter((c) => c.action === 'read').map((c) => c.name)
		expect(tools.map((tool) => tool.name)).toEqual(reads)
		expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true)
		expect(tools.some((tool) => tool.name === 'send_message')).toBe(false)
		const sent = await reader.callTool({
			name: 'send_message',
			arguments: { userbot_id: f.userbotId, chat_id: 1001, text: 'not allowed' },
		})
		expect([sent.isError, (sent.content as { text: string }[])[0]?.text]).toEqual([true, 'permission denied'])
		expect(
			structured(await reader.callTool({ name: 'get_me', arguments: { userbot_id: f.userbotId } })),
		).toMatchObject({ id: 1002 })
	})

	it("a key of one group lists that group's commands; a key of one userbot may leave userbot_id out", async () => {
		const key = await makeKey(f.t, f.alice.access, { groups: ['commands-chats'], userbot_ids: [f.userbotId] })
		const scoped = await agent(key)
		const { tools } = await scoped.listTools()
		const chats = f.t.catalog.commands.filter((c) => c.group === 'commands-chats').map((c) => c.name)
		expect(tools.map((tool) => tool.name)).toEqual(chats)
		const getMe = tools.find((tool) => tool.name === 'get_me')
		expect(getMe?.inputSchema.required ?? []).not.toContain('userbot_id')
		expect(structured(await scoped.callTool({ name: 'get_me', arguments: {} }))).toMatchObject({ id: 1002 })
		const refused = await scoped.callTool({
			name: 'send_message',
			arguments: { chat_id: 1001, text: 'outside the group' },
		})
		expect((refused.content as { text: string }[])[0]?.text).toBe('permission denied')
	})

	it('a key with the td_invoke scope lists td_invoke, which a key without it does not', async () => {
		const plain = await agent(await makeKey(f.t, f.alice.access))
		expect((await plain.listTools()).tools.map((tool) => tool.name)).not.toContain('td_invoke')
		const invoker = await agent(await makeKey(f.t, f.alice.access, { td_invoke: true }))
		const tool = (await invoker.listTools()).tools.find((t) => t.name === 'td_invoke')
		expect(tool?.annotations?.readOnlyHint).toBe(false)
		// Off on this server (TD_INVOKE_METHODS unset): the call is the command's own refusal.
		const off = await invoker.callTool({
			name: 'td_invoke',
			arguments: { userbot_id: f.userbotId, request: { '@type': 'getMe' } },
		})
		expect(off.isError).toBe(true)
		expect((off.content as { text: string }[])[0]?.text).toBe('td_invoke is disabled')
	})
})

describe('sessions', () => {
	it('caps the sessions of a key with a clear refusal; ending one makes room', async () => {
		const key = await makeKey(f.t, f.alice.access)
		const first = await agent(key)
		await agent(key)
		const refused = await post({ authorization: `Bearer ${key}` })
		expect(refused.status).toBe(503)
		expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
			'too many MCP sessions for this API key (at most 2): end one (DELETE /mcp with its Mcp-Session-Id) or let one go idle',
		)
		await (first.transport as StreamableHTTPClientTransport).terminateSession()
		const again = await post({ authorization: `Bearer ${key}` })
		expect(again.status).toBe(200)
	})

	it('a request that is no initialize opens no session', async () => {
		const key = await makeKey(f.t, f.alice.access)
		for (let i = 0; i < 3; i++) {
			const res = await post(
				{ authorization: `Bearer ${key}` },
				{ jsonrpc: '2.0', id: 1, method: 'tools/list' },
			)
			expect(res.status).toBe(400)
		}
		expect((await post({ authorization: `Bearer ${key}` })).status).toBe(200)
	})
})
