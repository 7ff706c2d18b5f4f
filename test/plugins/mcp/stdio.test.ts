import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { buildClientPackage } from '../../../packages/client/scripts/build'
import {
	createLoggedInUserbot,
	createMessagingFixture,
	type MessagingFixture,
	type WsClient,
} from '../../helpers-ws'
import { makeKey, structured } from './agent'

/**
 * The stdio program of the client package (`userbot-gateway-client mcp --url ...`, docs/mcp.md#setting-up-an-agent),
 * built as it ships (npm run build:client) and run by plain `node` as a desktop agent runs it: the
 * SDK's own `Client` over stdio lists the tools, calls `get_chats` and `send_message`, reads a
 * chat's history and hears of its new message (the gateway's stream carried back to stdio), on the
 * test's server on 127.0.0.1; without a key it says so and stops. Bob (1002) is the agent's
 * userbot; Alice (1001), of another company, writes to him.
 */
const BOB = 1002
const ALICE = 1001
const node = existsSync('/usr/bin/node') ? '/usr/bin/node' : 'node'
let f: MessagingFixture
let cli: string
let client: Client
let key: string
let alice: number
let aliceWs: WsClient
beforeAll(async () => {
	cli = join(buildClientPackage(), 'cli.js')
	f = await createMessagingFixture()
	alice = await createLoggedInUserbot(f.t, f.mallory.companyId, '9996611111')
	aliceWs = await f.connect(f.mallory)
	await aliceWs.command({ action: 'send_message', userbot_id: alice, chat_id: BOB, text: 'hello Bob' })
	key = await makeKey(f.t, f.alice.access)
	client = new Client({ name: 'desktop-agent', version: '1.0.0' })
	await client.connect(
		new StdioClientTransport({
			command: node,
			args: [cli, 'mcp', '--url', f.t.url],
			env: { PATH: process.env.PATH ?? '', USERBOT_GATEWAY_KEY: key },
			stderr: 'pipe',
		}),
	)
}, 180_000)
afterAll(async () => {
	await client?.close()
	await f?.stop()
})

describe('the stdio MCP program', () => {
	it('lists the tools, calls get_chats and send_message through the gateway', async () => {
		const { tools } = await client.listTools()
		// The key has no td_invoke scope: every tool but that one.
		expect(tools.map((tool) => tool.name)).toEqual(
			f.t.catalog.commands.map((c) => c.name).filter((name) => name !== 'td_invoke'),
		)
		const chats = await client.callTool({ name: 'get_chats', arguments: { userbot_id: f.userbotId } })
		expect((structured(chats).chats as { id: number }[]).map((c) => c.id)).toContain(ALICE)
		const sent = await client.callTool({
			name: 'send_message',
			arguments: { userbot_id: f.userbotId, chat_id: ALICE, text: 'hi over stdio' },
		})
		expect(structured(sent)).toMatchObject({ chat_id: ALICE })
		const refused = await client.callTool({ name: 'send_message', arguments: { userbot_id: f.userbotId } })
		expect(refused.isError).toBe(true)
	})

	it('reads the history resource and gets its update notification when the other account writes', async () => {
		const uri = `telegram://userbots/${f.userbotId}/chats/${ALICE}/messages`
		const read = await client.readResource({ uri })
		expect((read.contents[0] as { text: string }).text).toContain('hello Bob')
		const arrived = new Promise<string>((resolve) => {
			client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
				if (n.params.uri === uri) resolve(n.params.uri)
			})
		})
		await client.subscribeResource({ uri })
		await aliceWs.command({
			action: 'send_message',
			userbot_id: alice,
			chat_id: BOB,
			text: 'stdio, hear me?',
		})
		expect(await arrived).toBe(uri)
		expect(((await client.readResource({ uri })).contents[0] as { text: string }).text).toContain(
			'stdio, hear me?',
		)
	})

	it('without USERBOT_GATEWAY_KEY, says so on stderr and exits 2', async () => {
		const child = Bun.spawn([node, cli, 'mcp', '--url', f.t.url], {
			env: { PATH: process.env.PATH ?? '' },
			stdout: 'pipe',
			stderr: 'pipe',
		})
		const [code, err] = await Promise.all([child.exited, new Response(child.stderr).text()])
		expect(code).toBe(2)
		expect(err.split('\n')[0]).toBe('mcp: USERBOT_GATEWAY_KEY is not set (an API key of the gateway)')
	})
})
