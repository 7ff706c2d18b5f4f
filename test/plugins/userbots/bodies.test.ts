import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { createUserbot, type FreshServer, type Member, openSocket, serveFresh, signUp } from './support'

let server: FreshServer
let owner: Member
beforeAll(async () => {
	server = await serveFresh()
	owner = await signUp(server.url)
})
afterAll(() => server.dispose())

const CONTROL = 'Control characters are not allowed.'
const SURROGATE = 'Surrogate characters are not allowed.'
const BAD: Array<[string, string]> = [
	['\u0000', CONTROL],
	['\u001b', CONTROL],
	['\u009b', CONTROL],
	['\u2029', CONTROL],
	['\udbff', SURROGATE],
]

describe('userbot text fields', () => {
	it('refuses control characters and lone surrogates in a userbot name, never echoing it', async () => {
		for (const [c, message] of BAD) {
			const name = `Sales${c}bot`
			const res = await owner.call('POST', '/api/userbots/', { name })
			expect(res.status).toBe(400)
			const text = await res.text()
			expect(JSON.parse(text)).toEqual({ name: [message] })
			expect(text).not.toContain(name)
		}
		const list = (await (await owner.call('GET', '/api/userbots/')).json()) as unknown[]
		expect(list).toEqual([])
	})

	it('stores a name in NFC, trimmed', async () => {
		const res = await owner.call('POST', '/api/userbots/', { name: '  Zoe\u0308 desk ' })
		expect(res.status).toBe(201)
		const { id } = (await res.json()) as { id: number }
		const got = (await (await owner.call('GET', `/api/userbots/${id}/`)).json()) as { name: string }
		expect(got.name).toBe('Zo\u00eb desk')
	})

	it('refuses them in what goes to Telegram too: a code, a new account’s names', async () => {
		const id = await createUserbot(owner)
		for (const [path, field] of [
			['code', 'code'],
			['register', 'first_name'],
		] as const) {
			const res = await owner.call('POST', `/api/userbots/${id}/${path}/`, { [field]: `12${'\u0000'}34` })
			expect(res.status).toBe(400)
			expect(await res.json()).toEqual({ [field]: [CONTROL] })
		}
		const last = await owner.call('POST', `/api/userbots/${id}/register/`, {
			first_name: 'Ada',
			last_name: 'B\ud800',
		})
		expect(await last.json()).toEqual({ last_name: [SURROGATE] })
		// A 2FA password is passed on as typed, but a lone surrogate cannot be.
		const password = await owner.call('POST', `/api/userbots/${id}/password/`, { password: 'x\udc00' })
		expect(await password.json()).toEqual({ password: [SURROGATE] })
	})

	it('words the same refusals for the WebSocket face', async () => {
		const id = await createUserbot(owner)
		const ws = await openSocket(server.url, owner.access)
		try {
			const named = await ws.command('userbot_register', id, { first_name: 'A\u0007da' })
			expect(named.error).toBe('first_name must not contain control characters')
			const code = await ws.command('userbot_submit_code', id, { code: '1\ud8002' })
			expect(code.error).toBe('code must not contain unpaired surrogates')
		} finally {
			ws.close()
		}
	})
})
