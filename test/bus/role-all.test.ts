import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { RemoteRuntime } from '../../src/runtime/bus/remote-runtime'
import type { TestInstance } from '../helpers'
import { getTestInstance } from '../helpers'
import { connectWs, createLoggedInUserbot, registerUser } from '../helpers-ws'
import { HEARTBEAT_MS, type NatsServer, startNats, until } from './cluster'

/** `ROLE=all` with `BUS_URL`: one process that is a gateway and a shard at once, on the bus. */
describe('ROLE=all on the bus', () => {
	let nats: NatsServer
	let t: TestInstance

	beforeAll(async () => {
		nats = await startNats()
		t = await getTestInstance({
			ROLE: 'all',
			BUS_URL: nats.urlFor('all', 'solo'),
			BUS_HEARTBEAT: String(HEARTBEAT_MS),
			SHARD_ID: 'solo',
			EMULATOR_CONTROL: 'true',
		})
	})
	afterAll(async () => {
		await t?.stop()
		await nats?.stop()
	})

	it('serves commands through its own shard, over the bus', async () => {
		const runtime = t.ctx.runtime as RemoteRuntime
		expect(runtime).toBeInstanceOf(RemoteRuntime)
		await until('its own shard seen', () => (runtime.membership.shards().has('solo') ? true : undefined))
		const user = await registerUser(t, `all-${Date.now()}@example.com`)
		const id = await createLoggedInUserbot(t, user.companyId)
		const ws = await connectWs(t.url, { bearer: user.access })
		try {
			const reply = await ws.command({ action: 'get_default_message_auto_delete_time', userbot_id: id })
			expect(reply.payload.error).toBeUndefined()
		} finally {
			ws.close()
		}
		const health = (await (await fetch(`${t.url}/health`)).json()) as { supervisor: string }
		expect(health.supervisor).toBe('ok')
	})

	it("carries the account's status from its shard to the company's sockets, beside the numbered updates", async () => {
		const user = await registerUser(t, `all-status-${Date.now()}@example.com`)
		const id = await createLoggedInUserbot(t, user.companyId, '9996611111')
		const ws = await connectWs(t.url, { bearer: user.access })
		try {
			const revoked = await fetch(`${t.url}/api/emulator/revoke/`, {
				method: 'POST',
				headers: { authorization: `Bearer ${user.access}`, 'content-type': 'application/json' },
				body: JSON.stringify({ phone_number: '9996611111' }),
			})
			expect(revoked.status).toBe(200)
			const pushed = await ws.take(
				(m) =>
					m.payload?.type === 'userbot_status' &&
					(m.payload.result as { status?: string }).status === 'revoked',
			)
			expect(pushed).toMatchObject({ userbot_id: id, payload: { userbot_id: id } })
			const view = (await (
				await fetch(`${t.url}/api/userbots/${id}/`, { headers: { authorization: `Bearer ${user.access}` } })
			).json()) as { status: string }
			expect(view.status).toBe('revoked')
		} finally {
			ws.close()
		}
	})
})
