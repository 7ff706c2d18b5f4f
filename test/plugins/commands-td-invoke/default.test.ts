import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { type Company, startCompany } from '../../gateway/company'
import { connectWs } from '../../helpers-ws'
import { tdInvoker } from './support'

/** td_invoke as it loads by default (off), and with `all` (the deny-list still holds). */
describe('td_invoke by default', () => {
	let co: Company
	beforeAll(async () => {
		co = await startCompany()
	})
	afterAll(() => co.stop())

	it('is in the catalog, declares no method, and answers `td_invoke is disabled` to anything', async () => {
		expect(co.t.commands.get('td_invoke')?.command.methods).toEqual([])
		const res = await co.call('GET', '/api/commands/', co.owner.access)
		const catalog = (await res.json()) as { commands: Array<{ name: string; tdlib_methods: string[] }> }
		expect(catalog.commands.find((c) => c.name === 'td_invoke')?.tdlib_methods).toEqual([])
		const r = tdInvoker(await connectWs(co.t.url, { bearer: co.owner.access }), co.userbotId)
		expect(await r.errorOf({ '@type': 'getMe' })).toBe('td_invoke is disabled')
		expect(await r.errorOf({ '@type': 'getChat', chat_id: 'x' })).toBe('td_invoke is disabled')
	})
})

describe('td_invoke with all', () => {
	let co: Company
	beforeAll(async () => {
		co = await startCompany({ TD_INVOKE_METHODS: 'all' })
	})
	afterAll(() => co.stop())

	it('sends any method but a denied one', async () => {
		const r = tdInvoker(await connectWs(co.t.url, { bearer: co.owner.access }), co.userbotId)
		const chats = await r.ok({ '@type': 'getChats', limit: 10 })
		expect(chats._).toBe('chats')
		expect(await r.errorOf({ '@type': 'setLogVerbosityLevel', new_verbosity_level: 5 })).toBe('method denied')
		expect(await r.errorOf({ '@type': 'setTdlibParameters' })).toBe('method denied')
		expect(await r.errorOf({ '@type': 'setAuthenticationPhoneNumber', phone_number: '1' })).toBe(
			'method denied',
		)
	})

	it('sends the one request it is given: no private chat opened behind it, although createPrivateChat is allowed', async () => {
		const r = tdInvoker(await connectWs(co.t.url, { bearer: co.owner.access }), co.userbotId)
		const imported = await r.ok({
			'@type': 'importContacts',
			contacts: [{ '@type': 'importedContact', phone_number: '+9996631111', first_name: 'Carol' }],
		})
		expect(imported.user_ids).toEqual([1003])
		// A command that declares createPrivateChat would open Carol's chat and answer it; td_invoke
		// answers what TDLib said to the request itself.
		expect(await r.errorOf({ '@type': 'getChat', chat_id: 1003 })).toBe('Chat not found')
		expect((await r.ok({ '@type': 'createPrivateChat', user_id: 1003 })).id).toBe(1003)
		expect((await r.ok({ '@type': 'getChat', chat_id: 1003 })).id).toBe(1003)
	})
})

describe('td_invoke and the flood governor', () => {
	let co: Company
	beforeAll(async () => {
		co = await startCompany({
			TD_INVOKE_METHODS: 'sendMessage,getChat',
			FLOOD_LIMITS: 'send_chat=2/60',
			FLOOD_MAX_WAIT: '0',
		})
	})
	afterAll(() => co.stop())

	it("paces each request by its method's class: sendMessage waits for the send budget, getChat for none", async () => {
		const r = tdInvoker(await connectWs(co.t.url, { bearer: co.owner.access }), co.userbotId)
		const text = (t: string) => ({
			'@type': 'sendMessage',
			chat_id: 1001,
			input_message_content: { '@type': 'inputMessageText', text: { text: t } },
		})
		expect((await r.ok(text('one')))._).toBe('message')
		expect((await r.ok(text('two')))._).toBe('message')
		const third = await r.send(text('three'))
		expect(third.type).toBe('td_invoke_error')
		expect(String(third.error)).toMatch(/^Too Many Requests: retry after \d+$/)
		expect((third.result as { retry_after: number }).retry_after).toBeGreaterThan(0)
		for (let i = 0; i < 5; i++) expect((await r.ok({ '@type': 'getChat', chat_id: 1001 }))._).toBe('chat')
	})
})
