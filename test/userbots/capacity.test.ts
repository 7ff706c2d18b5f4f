import { afterAll, describe, expect, it } from 'bun:test'
import { FD_RESERVE, FDS_PER_CLIENT } from '../../src/runtime/supervisor/capacity'
import { countsIn } from '../helpers'
import {
	createUserbot,
	type Member,
	memberFor,
	openSocket,
	PLAIN_ACCOUNT,
	removeDir,
	type Server,
	serve,
	signUp,
	tempDir,
	until,
} from '../plugins/userbots/support'

/**
 * A full machine as a client sees it (docs/capacity.md): a userbot that does not fit is refused
 * with 503 `capacity reached: ...` (code `capacity_reached`), its status says `stopped`, nothing
 * crashes, and it starts once there is room. The emulator: what is checked is the refusal's path.
 */
const ONE_CLIENT = String(FD_RESERVE + FDS_PER_CLIENT)
const METRICS_TOKEN = 'capacity-metrics-token'
const dataDir = tempDir()
const servers: Server[] = []
afterAll(async () => {
	for (const s of servers) await s.halt()
	removeDir(dataDir)
})

async function start(env: Record<string, string> = {}) {
	const server = await serve(dataDir, { TDLIB_BACKEND: 'emulator', ...env })
	servers.push(server)
	return server
}

type View = { status: string; authorization_state: string }
const view = async (m: Member, id: number) =>
	(await (await m.call('GET', `/api/userbots/${id}/`)).json()) as View

describe('a userbot past the capacity', () => {
	it('is refused with the capacity error, told stopped, and starts once there is room', async () => {
		const first = await start()
		const owner = await signUp(first.url)
		const ids = [await createUserbot(owner), await createUserbot(owner)]
		await first.halt()

		// Restarted where one child fits one client: one comes back, the other is refused.
		const server = await start({ CHILD_MAX_FDS: ONE_CLIENT, METRICS_TOKEN })
		const me = await memberFor(server.url, owner.email)
		await until(async () => {
			const statuses = await Promise.all(ids.map(async (id) => (await view(me, id)).status))
			return statuses.includes('stopped')
		})
		const views = await Promise.all(ids.map((id) => view(me, id)))
		const refused = ids[views.findIndex((v) => v.status === 'stopped')] as number
		const running = ids.find((id) => id !== refused) as number
		expect((await view(me, running)).status).toBe('active')

		// A step on it: 503, the limit named; a new userbot the same, and no row is left of it.
		const step = await me.call('POST', `/api/userbots/${refused}/phone/`, {
			phone_number: PLAIN_ACCOUNT.phone,
		})
		expect(step.status).toBe(503)
		const body = (await step.json()) as { detail: string; code: string }
		expect(body.code).toBe('capacity_reached')
		expect(body.detail).toBe(
			`capacity reached: 1 userbot runs here, the most the file descriptor limit of ${ONE_CLIENT} ` +
				`(${FDS_PER_CLIENT} per userbot, ${FD_RESERVE} kept back) allows`,
		)
		const created = await me.call('POST', '/api/userbots/', { name: 'third' })
		expect(created.status).toBe(503)
		expect(((await created.json()) as { code: string }).code).toBe('capacity_reached')
		const list = (await (await me.call('GET', '/api/userbots/')).json()) as Array<{ id: number }>
		expect(list.map((u) => u.id).sort()).toEqual([...ids].sort())
		// The operator sees the machine full before anyone is refused: the public /health says only
		// that there is no room, the metrics (behind METRICS_TOKEN) have the counts.
		const health = await fetch(`${server.url}/health`)
		expect(health.status).toBe(200)
		const full = (await health.json()) as Record<string, unknown>
		expect(full.capacity).toEqual({ room: false })
		expect(countsIn(full)).toEqual([])
		expect(JSON.stringify(full)).not.toContain(ONE_CLIENT)
		const scrape = await (
			await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
		).text()
		expect(scrape).toMatch(/^ubg_capacity_clients 1$/m)
		expect(scrape).toMatch(/^ubg_capacity_used 1$/m)

		// Room again (the running one deleted): the refused one starts, and its socket hears it is active.
		const socket = await openSocket(server.url, me.access)
		expect((await me.call('DELETE', `/api/userbots/${running}/`)).status).toBe(204)
		const freed = (await (await fetch(`${server.url}/health`)).json()) as { capacity?: unknown }
		expect(freed.capacity).toEqual({ room: true })
		const again = await me.call('POST', `/api/userbots/${refused}/phone/`, {
			phone_number: PLAIN_ACCOUNT.phone,
		})
		expect(again.status).toBe(200)
		const active = await socket.next(
			(u) => u.type === 'chat_update' && u.payload?.type === 'userbot_status' && u.userbot_id === refused,
		)
		expect(active.payload.result).toMatchObject({ status: 'active' })
		expect((await view(me, refused)).status).toBe('active')
		socket.close()
	}, 60_000)
})
