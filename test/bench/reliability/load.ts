import { SEED_CHATS } from '../../../src/emulator'
import { groupCommand, runManyConnections } from '../../reliability/many-connections'
import { startStalledClients } from '../../reliability/stalled-clients'
import type { Row } from './row'
import { PASSWORD, peakRssMb, percentile, resetPeak, rssMb, sampleRss, startBenchServer } from './server'
import { makeWorld, supervisorPid, type World } from './world'

const crashesOf = (w: World, supervisor: number | undefined) =>
	(w.server.proc.proc.exitCode === null ? 0 : 1) + (supervisorPid(w.server) === supervisor ? 0 : 1)

/** `sockets` authenticated WebSockets held at once, each sending `perSocket` commands in turn. */
export async function manyConnections(w: World, sockets: number, perSocket: number): Promise<Row> {
	resetPeak(w.server.pid)
	const supervisor = supervisorPid(w.server)
	let open = 0
	const result = await runManyConnections({
		url: w.server.url,
		tokens: [w.alice.access],
		userbotId: w.userbotId,
		sockets,
		perSocket,
		whenOpen: () => {
			open = rssMb(w.server.pid)
		},
	})
	return {
		scenario: `${sockets} WebSockets at once`,
		tried: result.sent,
		replies: result.answered,
		crashes: crashesOf(w, supervisor),
		lost: result.lost,
		duplicates: result.duplicates,
		maxRssMb: peakRssMb(w.server.pid),
		p99Ms: percentile(result.latencies, 0.99),
		notes:
			`${result.opened} opened, ${perSocket} commands each (all five groups); RSS ${open.toFixed(0)} MB once all open; ` +
			`${result.errors.size === 0 ? 'no error' : `ERRORS: ${JSON.stringify([...result.errors]).slice(0, 200)}`}`,
	}
}

/**
 * `logins` logins of different users at once, while `/health` is asked every 10 ms: its p99 and
 * worst answer time, with the hash limit as configured (`limit` undefined: the default).
 */
export async function loginStorm(logins: number, limit?: number): Promise<Row> {
	const server = await startBenchServer(
		limit === undefined ? {} : { PASSWORD_HASH_CONCURRENCY: String(limit) },
	)
	try {
		const post = (path: string, body: unknown) =>
			fetch(`${server.url}${path}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body),
			})
		const emails = Array.from({ length: logins }, (_, i) => `storm-${i}@example.com`)
		for (let i = 0; i < emails.length; i += 20) {
			await Promise.all(
				emails
					.slice(i, i + 20)
					.map((email) =>
						post('/accounts/register/', { email, password: PASSWORD, first_name: 'S', last_name: 'T' }),
					),
			)
		}
		resetPeak(server.pid)
		const health: number[] = []
		let storming = true
		const prober = (async () => {
			while (storming) {
				const at = performance.now()
				await (await fetch(`${server.url}/health`)).arrayBuffer()
				health.push(performance.now() - at)
				await Bun.sleep(10)
			}
		})()
		const started = performance.now()
		const latencies: number[] = []
		const statuses = await Promise.all(
			emails.map(async (email) => {
				const at = performance.now()
				const res = await post('/accounts/token/', { email, password: PASSWORD })
				await res.arrayBuffer()
				latencies.push(performance.now() - at)
				return res.status
			}),
		)
		const seconds = (performance.now() - started) / 1000
		storming = false
		await prober
		const ok = statuses.filter((s) => s === 200).length
		const label = limit === undefined ? 'default limit (cores - 1)' : `PASSWORD_HASH_CONCURRENCY=${limit}`
		return {
			scenario: `${logins} logins at once, ${label}`,
			tried: logins,
			replies: ok,
			crashes: server.proc.proc.exitCode === null ? 0 : 1,
			lost: logins - statuses.length,
			duplicates: 0,
			maxRssMb: peakRssMb(server.pid),
			p99Ms: percentile(latencies, 0.99),
			notes:
				`${(ok / seconds).toFixed(0)} logins/s, all in ${seconds.toFixed(1)} s; /health meanwhile: ` +
				`p99 ${percentile(health, 0.99).toFixed(1)} ms, worst ${Math.max(...health).toFixed(1)} ms, ` +
				`${health.filter((ms) => ms > 100).length} of ${health.length} probes over 100 ms`,
		}
	} finally {
		await server.stop()
	}
}

/**
 * `stalled` sockets stop reading while each sends `count` messages of 4,000 characters (through
 * the bulk userbot) and subscribes to that userbot's updates; 10 readers send commands and take that
 * userbot's updates, which a producer keeps making. Run on a server of its own with
 * WS_SEND_BUFFER_BYTES 1 MiB and UPDATE_QUEUE_BYTES 256 KiB, so the bound can be stated.
 */
export async function backpressure(stalledCount: number, count: number): Promise<Row> {
	const SEND = 1024 * 1024
	const QUEUE = 256 * 1024
	const server = await startBenchServer({
		WS_SEND_BUFFER_BYTES: String(SEND),
		UPDATE_QUEUE_BYTES: String(QUEUE),
	})
	try {
		const w = await makeWorld(server, 'bp')
		const idle = rssMb(server.pid)
		resetPeak(server.pid)
		const supervisor = supervisorPid(server)
		const text = 'x'.repeat(4000)
		const stalled = await startStalledClients(server.url, w.alice.access, {
			sockets: stalledCount,
			// Subscribed to the userbot they flood: every message they send comes back to each of
			// them twice as updates, so their kernel buffers fill at once and their replies back up.
			userbotId: w.bulkUserbotId,
			frame: { action: 'send_message', userbot_id: w.bulkUserbotId, chat_id: 1003, text },
			count,
			// 1,000 frames a second in all: a rate the emulator keeps up with here, so the run
			// measures clients that do not read, not a server asked more than it can do.
			batch: 10,
			paceMs: Math.max(1000, stalledCount * 10),
			stallMs: 3000,
			readMs: 60_000,
		})
		const rss = sampleRss(server.pid)
		const readerLatencies: number[] = []
		// The readers: ordinary clients that keep up.
		const readers = await Promise.all(
			Array.from({ length: 10 }, async () => {
				const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/ws`, {
					headers: { authorization: `Bearer ${w.alice.access}` },
				} as unknown as string[])
				const got = {
					replies: new Set<string>(),
					dup: 0,
					seqs: [] as number[],
					resync: 0,
					first: 0,
					sentAt: new Map<string, number>(),
				}
				ws.onmessage = (e) => {
					const m = JSON.parse(String(e.data)) as {
						type: string
						seq?: number
						payload?: { request_id?: string; result?: { last_seq?: number } }
					}
					if (m.type === 'update') got.seqs.push(m.seq!)
					else if (m.type === 'resync') got.resync++
					else if (m.payload?.request_id === 'sub') got.first = (m.payload.result?.last_seq ?? 0) + 1
					else if (typeof m.payload?.request_id === 'string') {
						const id = m.payload.request_id
						if (got.replies.has(id)) got.dup++
						else if (got.sentAt.has(id)) readerLatencies.push(performance.now() - got.sentAt.get(id)!)
						got.replies.add(id)
					}
				}
				await new Promise<void>((resolve) => {
					ws.onopen = () => resolve()
				})
				ws.send(JSON.stringify({ action: 'subscribe', userbot_id: w.userbotId, request_id: 'sub' }))
				return { ws, got }
			}),
		)
		const sent = 200
		for (let n = 0; n < sent; n++) {
			for (const [r, { ws, got }] of readers.entries()) {
				got.sentAt.set(`r${r}-${n}`, performance.now())
				ws.send(JSON.stringify({ ...groupCommand(w.userbotId, n), request_id: `r${r}-${n}` }))
			}
			if (n % 2 === 0) {
				readers[0]!.ws.send(
					JSON.stringify({
						action: 'send_message',
						userbot_id: w.userbotId,
						chat_id: SEED_CHATS.basicGroup,
						text: `p${n}`,
						request_id: `p${n}`,
					}),
				)
			}
			await Bun.sleep(10)
		}
		const results = await stalled.results
		// The readers' last replies may still queue behind the stalled sockets' commands.
		const readersDone = () =>
			readers.every(({ got }) => [...got.replies].filter((id) => id.startsWith('r')).length >= sent)
		for (let i = 0; i < 600 && !readersDone(); i++) await Bun.sleep(100)
		await Bun.sleep(500)
		let readerLost = 0
		let readerDup = 0
		let gaps = 0
		for (const { ws, got } of readers) {
			readerLost += sent - [...got.replies].filter((id) => id.startsWith('r')).length
			readerDup += got.dup
			gaps += got.resync
			for (let i = 0; i < got.seqs.length; i++) if (got.seqs[i] !== got.first + i) gaps++
			ws.close()
		}
		const full = results.filter((s) => s.replies.length === count).length
		const closed = results.filter((s) => s.close?.code === 1013).length
		const neither = results.length - full - closed
		const stalledDup = results.reduce((n, s) => n + s.replies.length - new Set(s.replies).size, 0)
		const peak = Math.max(peakRssMb(server.pid), ...rss.stop())
		// Once every socket is gone: what the server gives back.
		await Bun.sleep(5000)
		const settled = rssMb(server.pid)
		const queuesMb = ((stalledCount + 11) * (2 * SEND + QUEUE)) / 1024 ** 2
		const errors = new Map<string, number>()
		for (const s of results)
			for (const [e, n] of Object.entries(s.errors)) errors.set(e, (errors.get(e) ?? 0) + n)
		return {
			scenario: `${stalledCount} clients that stop reading`,
			tried: stalledCount * count + readers.length * sent,
			replies: results.reduce((n, s) => n + s.replies.length, 0) + readers.length * sent - readerLost,
			crashes: (server.proc.proc.exitCode === null ? 0 : 1) + (supervisorPid(server) === supervisor ? 0 : 1),
			lost: readerLost + neither,
			duplicates: readerDup + stalledDup,
			maxRssMb: peak,
			p99Ms: percentile(readerLatencies, 0.99),
			notes:
				`stalled: ${full} got every reply, ${closed} closed 1013, ${neither} neither` +
				`${errors.size ? ` (error replies: ${JSON.stringify([...errors])})` : ''}; ` +
				`readers (p99 is theirs): ${readerLost} lost, ${gaps} update gaps; RSS ${idle.toFixed(0)} MB idle, ` +
				`${settled.toFixed(0)} MB 5 s after; the gateway's queues may hold ${queuesMb.toFixed(0)} MB ` +
				`(sockets x (2 x 1 MiB + 256 KiB)): idle + queues ${(idle + queuesMb).toFixed(0)} MB`,
		}
	} finally {
		await server.stop()
	}
}
