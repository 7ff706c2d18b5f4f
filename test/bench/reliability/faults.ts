import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { createClient } from '@libsql/client'
import { groupCommand } from '../../reliability/many-connections'
import type { Row } from './row'
import { PASSWORD, peakRssMb, percentile, resetPeak, signUp, startBenchServer } from './server'
import { supervisorPid, type World } from './world'

const RESTARTED = 'userbot runtime restarted, try again'

/**
 * SIGKILL to the supervisor while 16 sockets keep 16 commands each in flight (all five groups),
 * for `seconds` in all: every command answered once, only those the dead child held with
 * `userbot runtime restarted, try again`.
 */
export async function supervisorKill(w: World, seconds: number): Promise<Row> {
	resetPeak(w.server.pid)
	const before = supervisorPid(w.server)
	const wsUrl = `${w.server.url.replace(/^http/, 'ws')}/ws`
	let running = true
	let sent = 0
	let answered = 0
	let duplicates = 0
	const errors = new Map<string, number>()
	const latencies: number[] = []
	const seen = new Set<string>()
	const sockets = await Promise.all(
		Array.from({ length: 16 }, async (_, s) => {
			const ws = new WebSocket(wsUrl, {
				headers: { authorization: `Bearer ${w.alice.access}` },
			} as unknown as string[])
			await new Promise<void>((resolve, reject) => {
				ws.onopen = () => resolve()
				ws.onerror = () => reject(new Error('upgrade failed'))
			})
			const sentAt = new Map<string, number>()
			let n = 0
			const sendOne = () => {
				const id = `${s}-${n}`
				sentAt.set(id, performance.now())
				sent++
				ws.send(JSON.stringify({ ...groupCommand(w.userbotId, n++), request_id: id }))
			}
			ws.onmessage = (event) => {
				const m = JSON.parse(String(event.data)) as { payload?: { request_id?: string; error?: string } }
				const id = m.payload?.request_id
				if (typeof id !== 'string') return
				if (seen.has(id)) {
					duplicates++
					return
				}
				seen.add(id)
				answered++
				latencies.push(performance.now() - sentAt.get(id)!)
				const e = m.payload?.error
				if (e) errors.set(e, (errors.get(e) ?? 0) + 1)
				if (running) sendOne()
			}
			for (let i = 0; i < 16; i++) sendOne()
			return ws
		}),
	)
	await Bun.sleep(1000)
	if (before) process.kill(before, 'SIGKILL')
	await Bun.sleep(Math.max(1000, seconds * 1000 - 1000))
	running = false
	await Bun.sleep(1000)
	for (const ws of sockets) ws.close()
	const after = supervisorPid(w.server)
	const others = [...errors].filter(([e]) => e !== RESTARTED)
	return {
		scenario: 'supervisor SIGKILL under load',
		tried: sent,
		replies: answered,
		// The one kill was asked for; any other restart or a dead server is a crash.
		crashes: w.server.proc.proc.exitCode === null ? 0 : 1,
		lost: sent - answered,
		duplicates,
		maxRssMb: peakRssMb(w.server.pid),
		p99Ms: percentile(latencies, 0.99),
		notes:
			`16 sockets x 16 in flight, ${seconds} s; ${errors.get(RESTARTED) ?? 0} answered "${RESTARTED}"; ` +
			`supervisor ${before} -> ${after}` +
			(others.length ? `; OTHER ERRORS: ${JSON.stringify(others).slice(0, 200)}` : '; no other error'),
	}
}

/**
 * SIGKILL to the whole server during `count` registrations (half by invite, two per invite), then
 * a restart on the same data folder and the database's invariants counted.
 */
export async function serverKill(count: number): Promise<Row> {
	const server = await startBenchServer()
	const url = server.url
	const owner = await signUp(url, 'burst-owner@example.com')
	const post = (path: string, body: unknown, bearer?: string) =>
		fetch(`${url}${path}`, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
			},
			body: JSON.stringify(body),
		})
	const tokens: string[] = []
	for (let i = 0; i < count / 4; i++) {
		tokens.push(
			((await (await post('/accounts/invites/', {}, owner.access)).json()) as { token: string }).token,
		)
	}
	const statuses: Array<number | 'none'> = []
	const attempts = Array.from({ length: count }, (_, i) => {
		statuses.push('none')
		const email = `burst-${i}@example.com`
		const body: Record<string, unknown> = { email, password: PASSWORD, first_name: 'B', last_name: 'K' }
		if (i % 2 === 1) body.invite = tokens[(i >> 1) % tokens.length]
		return post('/accounts/register/', body).then(
			(r) => {
				statuses[i] = r.status
			},
			() => {},
		)
	})
	for (let i = 0; i < 6000 && statuses.filter((s) => s !== 'none').length < count / 4; i++) await Bun.sleep(5)
	server.proc.proc.kill('SIGKILL')
	await server.proc.proc.exited
	await Promise.all(attempts)
	const confirmed = statuses.filter((s) => s === 201).length
	const unanswered = statuses.filter((s) => s === 'none').length

	const again = await startBenchServer({}, server.dataDir)
	const db = createClient({ url: `file:${join(server.dataDir, 'app.db')}` })
	const count1 = async (sql: string) => Number((await db.execute(sql)).rows[0]![0])
	const halfMade =
		(await count1('SELECT count(*) FROM user_profile WHERE company_id IS NULL')) +
		(await count1(`SELECT count(*) FROM company c LEFT JOIN user_profile u ON u.id = c.owner_id
			WHERE u.id IS NULL OR u.company_id != c.id OR u.is_owner = 0`)) +
		(await count1(`SELECT count(*) FROM invite i LEFT JOIN user_profile u ON u.id = i.accepted_by
			WHERE (i.state = 'accepted' AND (u.id IS NULL OR u.company_id != i.company_id))
			   OR (i.state != 'accepted' AND i.accepted_by IS NOT NULL)`)) +
		(await count1(`SELECT count(*) FROM user_profile u WHERE u.is_owner = 0 AND
			(SELECT count(*) FROM invite i WHERE i.accepted_by = u.id AND i.state = 'accepted') != 1`))
	let missing = 0
	for (const [i, s] of statuses.entries()) {
		if (s !== 201) continue
		const row = await db.execute({
			sql: 'SELECT 1 FROM user_profile WHERE email = ?',
			args: [`burst-${i}@example.com`],
		})
		if (row.rows.length === 0) missing++
	}
	db.close()
	const after = await fetch(`${again.url}/accounts/register/`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ email: 'after@example.com', password: PASSWORD, first_name: 'A', last_name: 'K' }),
	})
	await again.stop()
	rmSync(server.dataDir, { recursive: true, force: true })
	return {
		scenario: 'server SIGKILL during registrations',
		tried: count,
		replies: count - unanswered,
		crashes: 0,
		lost: missing,
		duplicates: 0,
		maxRssMb: Number.NaN,
		p99Ms: Number.NaN,
		notes:
			`killed after ${count - unanswered} answers (${confirmed} x 201); ${halfMade} half-made accounts; ` +
			`${missing} confirmed and missing; restart ${after.status === 201 ? 'registers again' : `answered ${after.status}`}`,
	}
}
