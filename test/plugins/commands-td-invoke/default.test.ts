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
})
