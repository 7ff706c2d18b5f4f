import { SEED_CHATS } from '../../../src/emulator'
import { groupCommand } from '../../reliability/many-connections'
import type { Row } from './row'
import { openFds, percentile, rssMb, startBenchServer, token } from './server'
import { makeWorld, supervisorPid } from './world'

/**
 * The soak: for `seconds`, on a server of its own, a steady mix of what clients do: sockets that
 * send commands of all five groups one after the other, subscribe to a userbot's updates (resuming
 * with `after` from the last number they saw) and reconnect every few seconds; a producer whose
 * messages make the updates; a login every second, whose token the next connections use. Every
 * `intervalSeconds`: the server's and the supervisor's RSS and open file descriptors, the commands
 * answered and their p99. Paced, not flat out: it measures drift, not throughput.
 */
export interface SoakInterval {
	at: number
	serverRssMb: number
	childRssMb: number
	serverFds: number
	childFds: number
	answered: number
	p99Ms: number
	logins: number
	reconnects: number
	updates: number
}

const SOCKETS = 16
const PAUSE_MS = 20

export async function soak(seconds: number, intervalSeconds: number): Promise<Row> {
	const server = await startBenchServer()
	try {
		const w = await makeWorld(server, 'soak')
		const wsUrl = `${server.url.replace(/^http/, 'ws')}/ws`
		const supervisor = supervisorPid(server)
		let bearer = w.alice.access
		let running = true
		const until = performance.now() + seconds * 1000
		const totals = { sent: 0, answered: 0, lost: 0, duplicates: 0, gaps: 0, resyncs: 0 }
		const errors = new Map<string, number>()
		let window = { latencies: [] as number[], logins: 0, reconnects: 0, updates: 0 }
		const all: number[] = []
		const loginLatencies: number[] = []

		/** One client: connect, subscribe, 20 to 60 commands, close; again until the end. */
		const client = async (s: number) => {
			let n = 0
			let lastSeq = 0
			while (running) {
				const ws = new WebSocket(wsUrl, {
					headers: { authorization: `Bearer ${bearer}` },
				} as unknown as string[])
				let pending: { id: string; at: number; done: () => void } | null = null
				ws.onmessage = (event) => {
					const m = JSON.parse(String(event.data)) as {
						type: string
						seq?: number
						payload?: { request_id?: string; error?: string; result?: { last_seq?: number } }
					}
					if (m.type === 'update') {
						window.updates++
						if (lastSeq !== 0 && m.seq !== lastSeq + 1) totals.gaps++
						lastSeq = m.seq!
						return
					}
					if (m.type === 'resync') {
						totals.resyncs++
						lastSeq = m.seq! - 1
						return
					}
					const id = m.payload?.request_id
					if (typeof id !== 'string') return
					if (id.startsWith('sub')) {
						if (lastSeq === 0) lastSeq = m.payload?.result?.last_seq ?? 0
						pending?.done()
						return
					}
					if (pending === null || pending.id !== id) {
						totals.duplicates++
						return
					}
					const took = performance.now() - pending.at
					window.latencies.push(took)
					all.push(took)
					totals.answered++
					const error = m.payload?.error
					if (error !== undefined) errors.set(error, (errors.get(error) ?? 0) + 1)
					pending.done()
				}
				const opened = await new Promise<boolean>((resolve) => {
					ws.onopen = () => resolve(true)
					ws.onerror = () => resolve(false)
				})
				if (!opened) {
					errors.set('upgrade failed', (errors.get('upgrade failed') ?? 0) + 1)
					await Bun.sleep(500)
					continue
				}
				const ask = (frame: Record<string, unknown>, id: string, counted: boolean) =>
					new Promise<boolean>((resolve) => {
						const timer = setTimeout(() => resolve(false), 30_000)
						pending = {
							id,
							at: performance.now(),
							done: () => {
								clearTimeout(timer)
								pending = null
								resolve(true)
							},
						}
						if (counted) totals.sent++
						ws.send(JSON.stringify({ ...frame, request_id: id }))
					})
				const sub: Record<string, unknown> = { action: 'subscribe', userbot_id: w.userbotId }
				if (lastSeq > 0) sub.after = lastSeq
				await ask(sub, `sub-${s}-${n}`, false)
				const burst = 20 + ((s * 7 + n) % 41)
				for (let i = 0; i < burst && running; i++) {
					const producer = s === 0 && i % 5 === 0
					const frame = producer
						? {
								action: 'send_message',
								userbot_id: w.userbotId,
								chat_id: SEED_CHATS.basicGroup,
								text: `soak ${n}`,
							}
						: groupCommand(w.userbotId, s + n)
					if (!(await ask(frame, `${s}-${n++}`, true))) totals.lost++
					await Bun.sleep(PAUSE_MS)
				}
				ws.close()
				window.reconnects++
			}
		}

		/** A login a second; its token serves the next connections (access tokens live 5 minutes). */
		const logins = async () => {
			while (running) {
				const at = performance.now()
				try {
					bearer = await token(server.url, w.alice.email)
					loginLatencies.push(performance.now() - at)
					window.logins++
				} catch (err) {
					errors.set(String(err), (errors.get(String(err)) ?? 0) + 1)
				}
				await Bun.sleep(1000)
			}
		}

		const intervals: SoakInterval[] = []
		const started = performance.now()
		const sample = () => {
			const child = supervisorPid(server)
			const row: SoakInterval = {
				at: Math.round((performance.now() - started) / 1000),
				serverRssMb: rssMb(server.pid),
				childRssMb: child ? rssMb(child) : Number.NaN,
				serverFds: openFds(server.pid),
				childFds: child ? openFds(child) : Number.NaN,
				answered: window.latencies.length,
				p99Ms: percentile(window.latencies, 0.99),
				logins: window.logins,
				reconnects: window.reconnects,
				updates: window.updates,
			}
			window = { latencies: [], logins: 0, reconnects: 0, updates: 0 }
			intervals.push(row)
			console.log(
				`soak ${row.at} s: RSS ${row.serverRssMb.toFixed(0)}/${row.childRssMb.toFixed(0)} MB, ` +
					`fds ${row.serverFds}/${row.childFds}, ${row.answered} answered, p99 ${row.p99Ms.toFixed(1)} ms`,
			)
		}
		const workers = [...Array.from({ length: SOCKETS }, (_, s) => client(s)), logins()]
		while (performance.now() < until) {
			await Bun.sleep(Math.min(intervalSeconds * 1000, Math.max(0, until - performance.now())))
			sample()
		}
		running = false
		await Promise.all(workers)
		// Every socket closed: the descriptors they held must be gone.
		await Bun.sleep(2000)
		const fdsAfter = openFds(server.pid)

		console.log(`\n${soakTable(intervals)}\n`)
		const first = intervals[Math.min(1, intervals.length - 1)]!
		const last = intervals[intervals.length - 1]!
		const p99s = intervals.map((i) => i.p99Ms).filter((p) => !Number.isNaN(p))
		const others = [...errors]
		return {
			scenario: `soak ${seconds} s (${SOCKETS} sockets, logins, subscriptions, reconnects)`,
			tried: totals.sent,
			replies: totals.answered,
			crashes: (server.proc.proc.exitCode === null ? 0 : 1) + (supervisorPid(server) === supervisor ? 0 : 1),
			lost: totals.lost,
			duplicates: totals.duplicates,
			maxRssMb: Math.max(...intervals.map((i) => i.serverRssMb)),
			p99Ms: percentile(all, 0.99),
			notes:
				`${intervals.length} intervals of ${intervalSeconds} s; from the ${first.at} s mark to the last: ` +
				`RSS ${first.serverRssMb.toFixed(0)} -> ${last.serverRssMb.toFixed(0)} MB (supervisor ` +
				`${first.childRssMb.toFixed(0)} -> ${last.childRssMb.toFixed(0)}), fds ${first.serverFds} -> ` +
				`${last.serverFds} (${fdsAfter} once closed), p99 per interval ${Math.min(...p99s).toFixed(1)}-` +
				`${Math.max(...p99s).toFixed(1)} ms; ${loginLatencies.length} logins (p99 ` +
				`${percentile(loginLatencies, 0.99).toFixed(0)} ms), ${intervals.reduce((n, i) => n + i.reconnects, 0)} ` +
				`reconnects, ${intervals.reduce((n, i) => n + i.updates, 0)} updates, ${totals.gaps} update gaps, ` +
				`${totals.resyncs} resyncs` +
				(others.length ? `; ERRORS: ${JSON.stringify(others).slice(0, 200)}` : '; no error'),
		}
	} finally {
		await server.stop()
	}
}

export function soakTable(intervals: readonly SoakInterval[]): string {
	const lines = [
		'| s | server RSS MB | supervisor RSS MB | server fds | supervisor fds | answered | p99 ms | logins | reconnects | updates |',
		'|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
	]
	for (const i of intervals) {
		lines.push(
			`| ${i.at} | ${i.serverRssMb.toFixed(1)} | ${i.childRssMb.toFixed(1)} | ${i.serverFds} | ${i.childFds} | ` +
				`${i.answered} | ${i.p99Ms.toFixed(1)} | ${i.logins} | ${i.reconnects} | ${i.updates} |`,
		)
	}
	return lines.join('\n')
}
