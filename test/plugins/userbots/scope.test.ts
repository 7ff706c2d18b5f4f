import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import {
	createUserbot,
	type FreshServer,
	type Member,
	openSocket,
	PLAIN_ACCOUNT,
	serveFresh,
	signUp,
} from './support'

let server: FreshServer
let owner: Member
let stranger: Member
let id: number

beforeAll(async () => {
	server = await serveFresh()
	owner = await signUp(server.url, 'owner')
	stranger = await signUp(server.url, 'stranger')
	id = await createUserbot(owner)
})

afterAll(() => server.dispose())

describe('userbots of another company', () => {
	it('are invisible over REST', async () => {
		expect(await (await stranger.call('GET', '/api/userbots/')).json()).toEqual([])
		for (const [method, path, body] of [
			['GET', `/api/userbots/${id}/`, undefined],
			['POST', `/api/userbots/${id}/phone/`, { phone_number: PLAIN_ACCOUNT.phone }],
			['POST', `/api/userbots/${id}/code/`, { code: PLAIN_ACCOUNT.code }],
			['POST', `/api/userbots/${id}/password/`, { password: 'x' }],
			['POST', `/api/userbots/${id}/qr/`, undefined],
			['DELETE', `/api/userbots/${id}/`, undefined],
		] as const) {
			const res = await stranger.call(method, path, body)
			expect(res.status).toBe(404)
			expect(await res.json()).toEqual({ detail: 'Not found.' })
		}
		const fd = new FormData()
		fd.append('file', new File(['x'], 'a.txt'))
		const upload = await fetch(`${server.url}/api/userbots/${id}/files/`, {
			method: 'POST',
			headers: { authorization: `Bearer ${stranger.access}` },
			body: fd,
		})
		expect(upload.status).toBe(404)
		// Still there, untouched, for its owner.
		const mine = await owner.call('GET', `/api/userbots/${id}/`)
		expect(((await mine.json()) as { authorization_state: string }).authorization_state).toBe(
			'authorizationStateWaitPhoneNumber',
		)
	})

	it('cannot be commanded over the WebSocket', async () => {
		const ws = await openSocket(server.url, stranger.access)
		for (const [action, fields] of [
			['userbot_submit_phone', { phone_number: PLAIN_ACCOUNT.phone }],
			['userbot_submit_code', { code: PLAIN_ACCOUNT.code }],
			['userbot_submit_password', { password: 'x' }],
			['userbot_request_qr', {}],
			['userbot_get_state', {}],
			['get_default_message_auto_delete_time', {}],
		] as const) {
			const reply = await ws.command(action, id, fields)
			expect(reply.type).toBe(`${action}_error`)
			expect(reply.error).toBe('userbot not found')
		}
		// Nor does it hear the owner's userbot change state.
		await owner.call('POST', `/api/userbots/${id}/phone/`, { phone_number: PLAIN_ACCOUNT.phone })
		await Bun.sleep(100)
		expect(ws.received.filter((u) => u.payload.type === 'authorization_state')).toEqual([])
		ws.close()
	})

	it('answers 405 with Allow to a method a path does not take, on every path', async () => {
		const res = await owner.call('PUT', `/api/userbots/${id}/`, {})
		expect(res.status).toBe(405)
		expect(await res.json()).toEqual({ detail: 'Method "PUT" not allowed.' })
		const cases: Array<[string, string, string]> = [
			['DELETE', '/api/userbots/', 'GET, POST'],
			['POST', `/api/userbots/${id}/`, 'GET, DELETE'],
			['GET', `/api/userbots/${id}/phone/`, 'POST'],
			['GET', `/api/userbots/${id}/code/`, 'POST'],
			['GET', `/api/userbots/${id}/password/`, 'POST'],
			['GET', `/api/userbots/${id}/qr/`, 'POST'],
			['GET', `/api/userbots/${id}/files/`, 'POST'],
		]
		for (const [method, path, allowed] of cases) {
			const answer = await owner.call(method, path, method === 'GET' || method === 'DELETE' ? undefined : {})
			expect(answer.status).toBe(405)
			expect(await answer.json()).toEqual({ detail: `Method "${method}" not allowed.` })
			for (const m of allowed.split(', ')) expect(answer.headers.get('allow')).toContain(m)
		}
	})

	it('refuses anonymous callers', async () => {
		expect((await fetch(`${server.url}/api/userbots/`)).status).toBe(401)
		expect((await fetch(`${server.url}/api/userbots/`, { method: 'POST' })).status).toBe(401)
		expect((await fetch(`${server.url}/api/userbots/${id}/`)).status).toBe(401)
	})
})
