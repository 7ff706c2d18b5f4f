import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { chatsPlugin } from '../../../examples/chats'
import { builtInPlugins } from '../../../src/app'
import {
	createLoggedInUserbot,
	createMessagingFixture,
	type MessagingFixture,
	type WsClient,
} from '../../helpers-ws'
import { connectAgent, makeKey, structured } from './agent'

/**
 * The MCP face (docs/mcp.md) with the SDK's own `Client` over Streamable HTTP, on the emulator. Bob
 * (1002) is the company's userbot the agent uses; Alice (1001), a userbot of another company, writes
 * to him. The example group (examples/chats) is loaded beside the built-in ones: a third party's.
 */
const BOB = 1002
const ALICE = 1001
let f: MessagingFixture
let alice: number
let aliceWs: WsClient
let agent: Client
let key: string
beforeAll(async () => {
	f = await createMessagingFixture({}, { plugins: [...builtInPlugins, chatsPlugin] })
	alice = await createLoggedInUserbot(f.t, f.mallory.companyId, '9996611111')
	aliceWs = await f.connect(f.mallory)
	// Bob's client learns of the private chat with Alice (as TDLib needs it before writing there).
	await aliceWs.command({ action: 'send_message', userbot_id: alice, chat_id: BOB, text: 'hello Bob' })
	key = await makeKey(f.t, f.alice.access)
	agent = await connectAgent(f.t, key)
})
afterAll(async () => {
	await agent?.close()
	await f.stop()
})

describe('tools from the catalog', () => {
	it('lists one tool per command, with its input schema, its description and the policy as annotations', async () => {
		const { tools } = await agent.listTools()
		const names = tools.map((tool) => tool.name)
		// The owner's key has no td_invoke scope (docs/operator.md#any-tdlib-method): every tool but that one.
		expect(names).toEqual(f.t.catalog.commands.map((c) => c.name).filter((name) => name !== 'td_invoke'))
		const send = tools.find((tool) => tool.name === 'send_message')
		const catalogSend = f.t.catalog.commands.find((c) => c.name === 'send_message')
		expect(send?.inputSchema.required).toEqual([
			'userbot_id',
			...((catalogSend?.input.required as string[]) ?? []),
		])
		expect(Object.keys(send?.inputSchema.properties ?? {})).toEqual([
			'userbot_id',
			...Object.keys(catalogSend?.input.properties as object),
		])
		expect(send?.description).toContain(catalogSend?.errors[0] as string)
		expect(send?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false })
		expect(tools.find((tool) => tool.name === 'get_chats')?.annotations).toMatchObject({ readOnlyHint: true })
		for (const name of ['delete_messages', 'leave_chat', 'terminate_session'])
			expect(tools.find((tool) => tool.name === name)?.annotations).toMatchObject({
				readOnlyHint: false,
				destructiveHint: true,
			})
	})

	it("makes a third party's commands tools with no code of its own, and runs them", async () => {
		const { tools } = await agent.listTools()
		const example = f.t.catalog.commands.find((c) => c.name === 'example_get_chats')
		expect(example?.group).toBe('chats')
		const tool = tools.find((t) => t.name === 'example_get_chats')
		expect(tool?.inputSchema.properties).toEqual({
			userbot_id: expect.any(Object),
			...(example?.input.properties as object),
		})
		const answer = await agent.callTool({ name: 'example_get_chats', arguments: { userbot_id: f.userbotId } })
		// Its result, whatever its shape, names Bob's chat with Alice.
		expect(JSON.stringify(structured(answer))).toContain(`${ALICE}`)
	})

	it('calls get_chats and send_message: the results as structured content and as JSON text', async () => {
		const chats = await agent.callTool({ name: 'get_chats', arguments: { userbot_id: f.userbotId } })
		const list = structured(chats).chats as { id: number }[]
		expect(list.map((c) => c.id)).toContain(ALICE)
		const text = (chats.content as { type: string; text: string }[])[0]
		expect(JSON.parse(text?.text ?? '')).toEqual(structured(chats))
		const sent = await agent.callTool({
			name: 'send_message',
			arguments: { userbot_id: f.userbotId, chat_id: ALICE, text: 'hi from the agent' },
		})
		expect(structured(sent)).toMatchObject({
			chat_id: ALICE,
			content: { text: { text: 'hi from the agent' } },
		})
	})

	it("runs send_and_wait as a tool: the sent message, and the other account's reply to it", async () => {
		// Alice waits for Bob's question first (her listener is there before the agent sends), then answers it.
		const before = f.t.ctx.updates.listening(alice)
		const seen = aliceWs.command(
			{ action: 'wait_for_message', userbot_id: alice, chat_id: BOB, sender_id: BOB, timeout_s: 30 },
			40_000,
		)
		while (f.t.ctx.updates.listening(alice) === before) await Bun.sleep(1)
		const asked = agent.callTool({
			name: 'send_and_wait',
			arguments: { userbot_id: f.userbotId, chat_id: ALICE, text: 'Tea at five?', timeout_s: 30 },
		})
		const question = (await seen).payload.result as { id: number; content: { text?: { text: string } } }
		expect(question.content.text?.text).toBe('Tea at five?')
		const answered = await aliceWs.command({
			action: 'send_message',
			userbot_id: alice,
			chat_id: BOB,
			text: 'Gladly',
			reply_to_message_id: question.id,
		})
		expect(answered.payload.error).toBeUndefined()
		const { sent, reply } = structured(await asked) as {
			sent: { content: { text?: { text: string } }; is_outgoing: boolean }
			reply: { content: { text?: { text: string } }; chat_id: number; is_outgoing: boolean }
		}
		expect([sent.content.text?.text, sent.is_outgoing]).toEqual(['Tea at five?', true])
		expect([reply.content.text?.text, reply.chat_id, reply.is_outgoing]).toEqual(['Gladly', ALICE, false])
	})

	it('answers wait_for_message past its timeout as a tool error: timed out', async () => {
		const waited = await agent.callTool({
			name: 'wait_for_message',
			arguments: { userbot_id: f.userbotId, chat_id: ALICE, sender_id: 4242, timeout_s: 1 },
		})
		expect(waited.isError).toBe(true)
		expect((waited.content as { text: string }[])[0]?.text).toBe('timed out')
	})

	it("answers a command's error as a tool error with our string, and an unknown tool as unknown action", async () => {
		const refused = await agent.callTool({ name: 'send_message', arguments: { userbot_id: f.userbotId } })
		expect(refused.isError).toBe(true)
		const text = (refused.content as { text: string }[])[0]?.text ?? ''
		expect(f.t.catalog.commands.find((c) => c.name === 'send_message')?.errors).toContain(text)
		expect(text).not.toMatch(/\bat .*\.ts|Error:/)
		const missing = await agent.callTool({ name: 'get_chats', arguments: {} })
		expect([missing.isError, (missing.content as { text: string }[])[0]?.text]).toEqual([
			true,
			'userbot_id is required',
		])
		const unknown = await agent.callTool({ name: 'subscribe', arguments: { userbot_id: f.userbotId } })
		expect((unknown.content as { text: string }[])[0]?.text).toBe('unknown action')
	})
})

describe('resources', () => {
	it('lists the templates and the chat list of each userbot, and reads a chat history', async () => {
		const { resourceTemplates } = await agent.listResourceTemplates()
		expect(resourceTemplates.map((r) => r.uriTemplate)).toEqual([
			'telegram://userbots/{userbot_id}/chats',
			'telegram://userbots/{userbot_id}/chats/{chat_id}/messages',
		])
		const { resources } = await agent.listResources()
		expect(resources.map((r) => r.uri)).toEqual([`telegram://userbots/${f.userbotId}/chats`])
		const read = await agent.readResource({
			uri: `telegram://userbots/${f.userbotId}/chats/${ALICE}/messages`,
		})
		const history = JSON.parse((read.contents[0] as { text: string }).text) as {
			messages: { content: unknown }[]
		}
		expect(JSON.stringify(history.messages)).toContain('hello Bob')
	})

	it('refuses a URI of ours it does not know, and a userbot of another company as not found', async () => {
		await expect(agent.readResource({ uri: 'telegram://userbots/x/chats' })).rejects.toThrow(
			/unknown resource/,
		)
		await expect(agent.readResource({ uri: `telegram://userbots/${alice}/chats` })).rejects.toThrow(
			/userbot not found/,
		)
	})

	it('sends notifications/resources/updated for a subscribed chat when the other account writes', async () => {
		const uri = `telegram://userbots/${f.userbotId}/chats/${ALICE}/messages`
		const updated: string[] = []
		const arrived = new Promise<void>((resolve) => {
			agent.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
				updated.push(n.params.uri)
				if (n.params.uri === uri) resolve()
			})
		})
		await agent.subscribeResource({ uri })
		await aliceWs.command({ action: 'send_message', userbot_id: alice, chat_id: BOB, text: 'are you there?' })
		await arrived
		expect(updated).toContain(uri)
		const read = await agent.readResource({ uri })
		expect((read.contents[0] as { text: string }).text).toContain('are you there?')
		await agent.unsubscribeResource({ uri })
	})
})
