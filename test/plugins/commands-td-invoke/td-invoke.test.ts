import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { type Company, startCompany } from '../../gateway/company'
import { connectWs } from '../../helpers-ws'
import { TESTED_METHODS, tdInvoker } from './support'

/**
 * td_invoke over the real WebSocket, gateway and supervisor, on the emulator, with an allow-list
 * that names two denied methods too (they stay refused). The fixture's userbot is Bob; 1001 is his
 * private chat with Alice.
 */
const ALICE = 1001
let co: Company
let r: ReturnType<typeof tdInvoker>

beforeAll(async () => {
	co = await startCompany({ TD_INVOKE_METHODS: TESTED_METHODS })
	r = tdInvoker(await connectWs(co.t.url, { bearer: co.owner.access }), co.userbotId)
})
afterAll(() => co.stop())

describe('td_invoke, allowed', () => {
	it("runs an allowed method and answers TDLib's object as it is", async () => {
		const chat = await r.ok({ '@type': 'getChat', chat_id: ALICE })
		expect(chat).toMatchObject({ _: 'chat', id: ALICE })
		const me = await r.ok({ _: 'getMe' })
		expect(me._).toBe('user')
		expect(await r.ok({ '@type': 'getOption', name: 'version' })).toEqual({
			_: 'optionValueString',
			value: '1.8.65',
		})
	})

	it("passes TDLib's own error through as TDLib wrote it (a field left out is TDLib's zero)", async () => {
		expect(await r.errorOf({ '@type': 'getChat' })).toBe('Invalid chat identifier specified')
		expect(await r.errorOf({ '@type': 'getChat', chat_id: 424242 })).toBe('Chat not found')
	})

	it('declares exactly the allow-list, less the denied methods, for the gateway, the shards and the catalog', async () => {
		expect(co.t.commands.get('td_invoke')?.command.methods).toEqual([
			'getChat',
			'getMe',
			'getOption',
			'sendMessage',
		])
		// sendMessage is no read: the entry says it may destroy (an MCP tool's destructiveHint).
		expect(co.t.commands.get('td_invoke')?.policy).toMatchObject({
			action: 'manage',
			tdInvoke: true,
			destructive: true,
		})
		const res = await co.call('GET', '/api/commands/', co.owner.access)
		const catalog = (await res.json()) as { commands: Array<{ name: string; tdlib_methods: string[] }> }
		const entry = catalog.commands.find((c) => c.name === 'td_invoke')
		expect(entry?.tdlib_methods).toEqual(['getChat', 'getMe', 'getOption', 'sendMessage'])
	})
})

describe('td_invoke, refused', () => {
	it('refuses a method outside the list, and a denied one although listed', async () => {
		expect(await r.errorOf({ '@type': 'getChats', limit: 10 })).toBe('method not allowed')
		expect(await r.errorOf({ '@type': 'setLogStream', log_stream: { '@type': 'logStreamEmpty' } })).toBe(
			'method denied',
		)
		expect(await r.errorOf({ '@type': 'deleteAccount', reason: 'x', password: '' })).toBe('method denied')
		// Denied and unlisted alike: no setting reaches it.
		expect(await r.errorOf({ '@type': 'logOut' })).toBe('method denied')
	})

	it("refuses a malformed object with the validator's words, never the values", async () => {
		const cases: Array<[unknown, string]> = [
			[{ '@type': 'getChat', chat_id: 'secret-words' }, 'request.chat_id must be an integer'],
			[{ '@type': 'getChat', chat_id: 1, secret_field: 1 }, 'request: unknown field for getChat'],
			// `@extra` is the runtime's own tag of a request: no client sets it.
			[{ '@type': 'getMe', '@extra': 'secret' }, 'request: unknown field for getMe'],
			[{ '@type': 'getChatz', chat_id: 1 }, 'request: unknown TDLib method'],
			[{ '@type': 'chat', id: 1 }, 'request: unknown TDLib method'],
			[{ chat_id: 1 }, 'request must be a TDLib object with an @type'],
			[{ '@type': 7 }, 'request must be a TDLib object with an @type'],
			['getChat', 'request must be a TDLib object with an @type'],
			[{ '@type': 'getChat', _: 'getMe' }, 'request has two different types in @type and _'],
			[
				{
					'@type': 'sendMessage',
					chat_id: ALICE,
					input_message_content: { '@type': 'inputMessageText', text: { text: 5 } },
				},
				'request.input_message_content.text.text must be a string',
			],
			[
				{ '@type': 'sendMessage', chat_id: ALICE, input_message_content: { '@type': 'formattedText' } },
				'request.input_message_content: formattedText is not allowed here',
			],
		]
		for (const [request, message] of cases) {
			const error = await r.errorOf(request)
			expect(error).toBe(message)
			expect(error).not.toContain('secret')
		}
		const payload = await r.send(undefined)
		expect(payload).toMatchObject({ type: 'td_invoke_error', error: 'request is required' })
	})

	it('reads no local file but an uploaded one of the userbot, named upload:<name>', async () => {
		const document = (path: string) => ({
			'@type': 'sendMessage',
			chat_id: ALICE,
			input_message_content: {
				'@type': 'inputMessageDocument',
				document: { '@type': 'inputDocument', document: { '@type': 'inputFileLocal', path } },
			},
		})
		expect(await r.errorOf(document('/etc/passwd'))).toBe(
			'media must be a URL, a remote file id or an uploaded file',
		)
		expect(await r.errorOf(document('upload:../../etc/passwd'))).toBe('request: uploaded file not found')
		expect(await r.errorOf(document('upload:missing.txt'))).toBe('request: uploaded file not found')
		const uploads = join(co.t.dataDir, 'tdlib', String(co.userbotId), 'uploads')
		mkdirSync(uploads, { recursive: true })
		writeFileSync(join(uploads, 'notes.txt'), 'notes')
		const sent = await r.ok(document('upload:notes.txt'))
		expect(sent).toMatchObject({ _: 'message', chat_id: ALICE, content: { _: 'messageDocument' } })
	})
})

describe('td_invoke, who', () => {
	it('refuses a member, even for a read', async () => {
		const m = tdInvoker(await connectWs(co.t.url, { bearer: co.member.access }), co.userbotId)
		expect(await m.errorOf({ '@type': 'getMe' })).toBe('permission denied')
	})

	it('refuses an API key without the td_invoke scope and serves one with it', async () => {
		const keyOf = async (body: Record<string, unknown>) => {
			const res = await co.call('POST', '/api/keys/', co.owner.access, { name: 'td', ...body })
			expect(res.status).toBe(201)
			const made = (await res.json()) as { key: string; scopes: Record<string, unknown> }
			expect(made.scopes.td_invoke).toBe(body.td_invoke === true)
			return made.key
		}
		const plain = tdInvoker(await connectWs(co.t.url, { bearer: await keyOf({}) }), co.userbotId)
		expect(await plain.errorOf({ '@type': 'getMe' })).toBe('permission denied')
		const scoped = tdInvoker(
			await connectWs(co.t.url, { bearer: await keyOf({ td_invoke: true }) }),
			co.userbotId,
		)
		expect((await scoped.ok({ '@type': 'getMe' }))._).toBe('user')
		// The scope adds td_invoke; read_only still keeps a key to reads, and td_invoke is not one.
		const readOnly = tdInvoker(
			await connectWs(co.t.url, { bearer: await keyOf({ td_invoke: true, read_only: true }) }),
			co.userbotId,
		)
		expect(await readOnly.errorOf({ '@type': 'getMe' })).toBe('permission denied')
	})

	it("writes the audit line with the method's name and none of the request's values", async () => {
		await r.ok({ '@type': 'getChat', chat_id: ALICE })
		const res = await co.call('GET', '/api/audit/?limit=100', co.owner.access)
		const lines = (await res.json()) as Array<{ action: string; target: string; detail: unknown }>
		const line = lines.find((l) => l.action === 'td.invoked')
		expect(line).toMatchObject({
			target: `userbot:${co.userbotId}`,
			detail: { command: 'td_invoke', method: 'getChat' },
		})
		// Each line says the command and the method, nothing of the request (no chat id, no path).
		const details = lines.filter((l) => l.action === 'td.invoked').map((l) => l.detail as object)
		expect(details.length).toBeGreaterThanOrEqual(6)
		for (const d of details) expect(Object.keys(d).sort()).toEqual(['command', 'method'])
		expect(JSON.stringify(details)).not.toContain(String(ALICE))
	})
})
