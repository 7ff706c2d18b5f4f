/**
 * Benchmark of the Bot API face (docs/bot-api.md): sendMessage through `/bot<token>/sendMessage`
 * against the same command, `send_message` with `wait_sent`, over the WebSocket, the same number of
 * messages each, in one run, on the emulator. The load comes from a process of its own (this file,
 * `BENCH_CHILD` in its environment) so that it shares no event loop with the gateway it measures:
 * `BENCH_CONCURRENCY` requests outstanding (HTTP: that many keep-alive connections with one request
 * each; WebSocket: one socket with that many frames in flight, as a client of the channel runs them).
 * Rounds alternate, so a noisy machine weighs on both alike. Goal: the face costs at most 1.25 times
 * the WebSocket per message (wall time per message, the ratio face over WebSocket); it also prints
 * the gateway's CPU per message of each and their ratio, and the CPU per message of the load process
 * and of the supervisor child.
 *
 * The HTTP load is written on raw TCP sockets (`Bun.connect`, HTTP/1.1 keep-alive, the request's bytes
 * built once, each answer read by its `content-length` and its body parsed as JSON): on 2 cores the
 * load process takes its CPU from the gateway, and 16 `fetch` loops cost about twice what the
 * WebSocket client does a message (29-33 against 14-15 µs; raw sockets 13-20). The gateway's side is
 * the same: the same requests, headers and bodies reach the same route. `BENCH_CLIENT=fetch` runs the
 * fetch loops instead.
 *
 *   bun test/bench/bot-api-send.ts   (BENCH_MESSAGES, BENCH_CONCURRENCY, BENCH_ROUNDS, BENCH_WARMUP)
 *
 * `BENCH_ONLY=face` (or `ws`) runs one side alone, for a profile of it (`bun --cpu-prof`): no ratio.
 * `BENCH_THREADS=1` prints the gateway's CPU by thread (`rounds`: each round's too): the JIT's
 * compiler thread is a large part of a short run. `BENCH_FLOOR=1` adds the transport's floor in the
 * same run: a bare `Bun.serve` answering the same HTTP and WebSocket load (context, not the goal).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { getTestInstance } from '../helpers'
import { createLoggedInUserbot, registerUser } from '../helpers-ws'

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 3000)
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const GOAL = 1.25
/** Messages of each side before the counted rounds (the JIT is still compiling the paths through them). */
const WARMUP = Number(process.env.BENCH_WARMUP ?? 100)
const ONLY = process.env.BENCH_ONLY
/** The face's load: raw keep-alive sockets (the default), or `fetch` loops (`BENCH_CLIENT=fetch`). */
const CLIENT = process.env.BENCH_CLIENT === 'fetch' ? 'fetch' : 'raw'
const ALICE = 1001

interface ChildSpec {
	mode: 'http' | 'ws'
	url: string
	/** HTTP: the JSON body; WebSocket: the frame (a `request_id` is added to each). */
	body: Record<string, unknown>
	headers: Record<string, string>
	count: number
	concurrency: number
}

interface ChildResult {
	ok: number
	failed: number
	seconds: number
	errors: Record<string, number>
	/** The load process's own CPU over the run, µs (user + system). */
	loadCpuMicros?: number
}

/** The answers of a load: counted as the Bot API words them (`ok`, or `description` tallied). */
function answerTally() {
	const t = { ok: 0, failed: 0, errors: {} as Record<string, number> }
	return {
		t,
		fail(why?: string) {
			t.failed++
			if (why !== undefined) t.errors[why] = (t.errors[why] ?? 0) + 1
		},
		answer(value: unknown) {
			const a = value as { ok?: boolean; description?: string }
			if (a.ok === true) t.ok++
			else this.fail(String(a.description))
		},
	}
}

/** `count` requests, `concurrency` outstanding, over HTTP. */
async function httpLoad(spec: ChildSpec): Promise<ChildResult> {
	let next = 0
	const tally = answerTally()
	const body = JSON.stringify(spec.body)
	const started = performance.now()
	const loop = async () => {
		while (next < spec.count) {
			next++
			try {
				const res = await fetch(spec.url, {
					method: 'POST',
					headers: { 'content-type': 'application/json', ...spec.headers },
					body,
				})
				tally.answer(await res.json())
			} catch {
				tally.fail()
			}
		}
	}
	await Promise.all(Array.from({ length: spec.concurrency }, loop))
	return { ...tally.t, seconds: (performance.now() - started) / 1000 }
}

/**
 * `count` requests over HTTP/1.1 keep-alive on `concurrency` raw TCP connections (`Bun.connect`),
 * one request outstanding on each: the request's bytes built once, each answer read by its
 * `content-length` and its body parsed as JSON (as the WebSocket client parses each reply). The
 * server sees the same requests as from `fetch`; the load process spends about what the WebSocket
 * client does, not fetch's client machinery (on 2 cores that CPU is taken from the gateway).
 */
async function rawHttpLoad(spec: ChildSpec): Promise<ChildResult> {
	const url = new URL(spec.url)
	const body = Buffer.from(JSON.stringify(spec.body))
	const head =
		`POST ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n` +
		Object.entries({ 'content-type': 'application/json', ...spec.headers })
			.map(([k, v]) => `${k}: ${v}\r\n`)
			.join('') +
		`Content-Length: ${body.length}\r\n\r\n`
	const request = Buffer.concat([Buffer.from(head, 'latin1'), body])
	const HEAD_END = Buffer.from('\r\n\r\n')
	let next = 0
	const tally = answerTally()
	const started = performance.now()
	const connection = () =>
		new Promise<void>((resolve, reject) => {
			let pending: Buffer = Buffer.alloc(0)
			let done = false
			const finish = (socket: { end(): void }) => {
				if (done) return
				done = true
				socket.end()
				resolve()
			}
			const ask = (socket: { write(data: Uint8Array): number; end(): void }) => {
				if (next >= spec.count) return finish(socket)
				next++
				socket.write(request)
			}
			Bun.connect({
				hostname: url.hostname,
				port: Number(url.port),
				socket: {
					open: ask,
					data(socket, chunk) {
						pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk])
						for (;;) {
							const end = pending.indexOf(HEAD_END)
							if (end < 0) return
							const headers = pending.toString('latin1', 0, end)
							const length = /\r\ncontent-length: *(\d+)/i.exec(headers)
							if (!length) {
								tally.fail('no content-length')
								return finish(socket)
							}
							const total = end + 4 + Number(length[1])
							if (pending.length < total) return
							const text = pending.toString('utf8', end + 4, total)
							pending = pending.subarray(total)
							try {
								tally.answer(JSON.parse(text))
							} catch {
								tally.fail()
							}
							ask(socket)
						}
					},
					close() {
						if (!done) reject(new Error('the server closed a connection'))
					},
					error(_socket, err) {
						reject(err)
					},
				},
			}).catch(reject)
		})
	await Promise.all(Array.from({ length: spec.concurrency }, connection))
	return { ...tally.t, seconds: (performance.now() - started) / 1000 }
}

/** `count` frames, `concurrency` in flight, on one socket. */
async function wsLoad(spec: ChildSpec): Promise<ChildResult> {
	const ws = new WebSocket(spec.url, { headers: spec.headers } as unknown as string[])
	await new Promise<void>((resolve, reject) => {
		ws.onopen = () => resolve()
		ws.onerror = () => reject(new Error('the socket did not open'))
	})
	let sent = 0
	let ok = 0
	let failed = 0
	const errors: Record<string, number> = {}
	const started = performance.now()
	const send = () => {
		ws.send(JSON.stringify({ ...spec.body, request_id: sent++ }))
	}
	await new Promise<void>((resolve) => {
		ws.onmessage = (event) => {
			const reply = JSON.parse(String(event.data)) as {
				payload?: { request_id?: unknown; type?: string; error?: string }
			}
			if (reply.payload?.request_id === undefined) return
			if (reply.payload.error === undefined) ok++
			else {
				failed++
				errors[reply.payload.error] = (errors[reply.payload.error] ?? 0) + 1
			}
			if (sent < spec.count) send()
			else if (ok + failed >= spec.count) resolve()
		}
		for (let i = 0; i < Math.min(spec.concurrency, spec.count); i++) send()
	})
	const seconds = (performance.now() - started) / 1000
	ws.close()
	return { ok, failed, seconds, errors }
}

/** This process's CPU by thread name (Linux: /proc/self/task/<tid>/schedstat, ns on a CPU), for `BENCH_THREADS`. */
function threadCpu(): Map<string, number> {
	const byName = new Map<string, number>()
	try {
		for (const tid of readdirSync('/proc/self/task')) {
			try {
				const name = readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim()
				const ns = Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0])
				byName.set(name, (byName.get(name) ?? 0) + ns)
			} catch {}
		}
	} catch {}
	return byName
}

/** CPU of this process's children running now (the supervisor child), µs, from /proc/<pid>/stat. */
function childrenCpu(): number {
	let ticks = 0
	try {
		for (const tid of readdirSync('/proc/self/task')) {
			const kids = readFileSync(`/proc/self/task/${tid}/children`, 'utf8').trim()
			for (const pid of kids ? kids.split(' ') : []) {
				try {
					const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
					const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
					ticks += Number(fields[11]) + Number(fields[12])
				} catch {}
			}
		}
	} catch {}
	return ticks * 10_000
}

const threadTotals = { face: new Map<string, number>(), ws: new Map<string, number>() }

/** One round from a process of its own, with the CPU this process (the gateway) spent serving it. */
async function round(spec: ChildSpec) {
	const threads = threadCpu()
	const kids = childrenCpu()
	const cpu = process.cpuUsage()
	const child = Bun.spawn([process.execPath, import.meta.path], {
		env: { ...process.env, BENCH_CHILD: JSON.stringify(spec) },
		stdout: 'pipe',
		stderr: 'inherit',
	})
	const out = await new Response(child.stdout).text()
	if ((await child.exited) !== 0) throw new Error('the load process failed')
	const used = process.cpuUsage(cpu)
	const kidsMicros = childrenCpu() - kids
	const tally = threadTotals[spec.mode === 'http' ? 'face' : 'ws']
	const own: string[] = []
	for (const [name, ns] of threadCpu()) {
		const spent = ns - (threads.get(name) ?? 0)
		tally.set(name, (tally.get(name) ?? 0) + spent)
		if (spent > 0) own.push(`${name} ${(spent / 1000 / spec.count).toFixed(1)}`)
	}
	if (process.env.BENCH_THREADS === 'rounds')
		console.log(
			`  ${spec.mode} round, µs/message: ${own.join(', ')}; supervisor child ${(kidsMicros / spec.count).toFixed(1)}`,
		)
	return { ...(JSON.parse(out) as ChildResult), cpuMicros: used.user + used.system, kidsMicros }
}

/**
 * The transport's floor, in the same run (`BENCH_FLOOR=1`): a bare `Bun.serve` in this process that
 * answers each POST with a fixed JSON answer of the face's shape after parsing its body, and echoes
 * each WebSocket frame's `request_id` after parsing it; the same load processes. What HTTP costs
 * over a WebSocket frame before any of the gateway's work (context, not the goal).
 */
async function floor(face: ChildSpec, ws: ChildSpec): Promise<string> {
	const answer = JSON.stringify({
		ok: true,
		result: { message_id: 1, chat: { id: ALICE }, text: 'bench message' },
	})
	const server = Bun.serve({
		port: 0,
		hostname: '127.0.0.1',
		async fetch(request, srv) {
			if (srv.upgrade(request)) return undefined
			JSON.parse(await request.text())
			return new Response(answer, { headers: { 'content-type': 'application/json' } })
		},
		websocket: {
			message(socket, message) {
				const frame = JSON.parse(String(message)) as { request_id?: unknown }
				socket.send(JSON.stringify({ payload: { request_id: frame.request_id, type: 'send_message' } }))
			},
		},
	})
	try {
		const base = `127.0.0.1:${server.port}`
		const http = { ...face, url: `http://${base}/bot1:x/sendMessage` }
		const sock = { ...ws, url: `ws://${base}/ws` }
		await round({ ...http, count: 100 })
		await round({ ...sock, count: 100 })
		let [hs, hc, hn, ws_, wc, wn] = [0, 0, 0, 0, 0, 0]
		for (let i = 0; i < ROUNDS; i++) {
			const a = await round(http)
			const b = await round(sock)
			hs += a.seconds
			hc += a.cpuMicros
			hn += a.ok
			ws_ += b.seconds
			wc += b.cpuMicros
			wn += b.ok
		}
		const ph = (hs * 1e6) / Math.max(1, hn)
		const pw = (ws_ * 1e6) / Math.max(1, wn)
		return (
			`floor (bare Bun.serve): HTTP ${ph.toFixed(0)} µs/message at ${(hc / Math.max(1, hn)).toFixed(0)} µs server CPU, ` +
			`WebSocket ${pw.toFixed(0)} µs/message at ${(wc / Math.max(1, wn)).toFixed(0)} µs; ratio ${(ph / pw).toFixed(2)}; ` +
			`load average ${loadavg()[0]?.toFixed(1)}`
		)
	} finally {
		server.stop(true)
	}
}

async function main(): Promise<number> {
	const t = await getTestInstance({ LOG_LEVEL: 'error' })
	try {
		const bob = await registerUser(t, 'bench-bob@example.com')
		const userbotId = await createLoggedInUserbot(t, bob.companyId)
		const keyRes = await fetch(`${t.url}/api/keys/`, {
			method: 'POST',
			headers: { authorization: `Bearer ${bob.access}`, 'content-type': 'application/json' },
			body: JSON.stringify({ name: 'bench', bot_api: true, userbot_ids: [userbotId] }),
		})
		const { bot_token: token } = (await keyRes.json()) as { bot_token: string }
		const hello = await fetch(`${t.url}/bot${token}/sendMessage`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ chat_id: ALICE, text: 'hello' }),
		})
		if (!((await hello.json()) as { ok: boolean }).ok) throw new Error('sendMessage failed before the run')
		const text = 'bench message'
		const face: ChildSpec = {
			mode: 'http',
			url: `${t.url}/bot${token}/sendMessage`,
			body: { chat_id: ALICE, text },
			headers: {},
			count: Math.ceil(MESSAGES / ROUNDS),
			concurrency: CONCURRENCY,
		}
		const ws: ChildSpec = {
			mode: 'ws',
			url: `${t.url.replace(/^http/, 'ws')}/ws`,
			body: { action: 'send_message', userbot_id: userbotId, chat_id: ALICE, text, wait_sent: true },
			headers: { authorization: `Bearer ${bob.access}` },
			count: Math.ceil(MESSAGES / ROUNDS),
			concurrency: CONCURRENCY,
		}
		// A warm-up of each, not counted.
		await round({ ...face, count: WARMUP })
		await round({ ...ws, count: WARMUP })
		for (const tally of Object.values(threadTotals)) tally.clear()
		const totals = {
			face: 0,
			faceS: 0,
			faceCpu: 0,
			faceLoad: 0,
			faceKids: 0,
			ws: 0,
			wsS: 0,
			wsCpu: 0,
			wsLoad: 0,
			wsKids: 0,
			failed: 0,
		}
		const errors: Record<string, number> = {}
		for (let i = 0; i < ROUNDS; i++) {
			const none = {
				ok: 0,
				failed: 0,
				seconds: 0,
				errors: {} as Record<string, number>,
				cpuMicros: 0,
				loadCpuMicros: 0,
				kidsMicros: 0,
			}
			const a = ONLY === 'ws' ? none : await round(face)
			const b = ONLY === 'face' ? none : await round(ws)
			totals.face += a.ok
			totals.faceS += a.seconds
			totals.faceCpu += a.cpuMicros
			totals.faceLoad += a.loadCpuMicros ?? 0
			totals.faceKids += a.kidsMicros
			totals.ws += b.ok
			totals.wsS += b.seconds
			totals.wsCpu += b.cpuMicros
			totals.wsLoad += b.loadCpuMicros ?? 0
			totals.wsKids += b.kidsMicros
			totals.failed += a.failed + b.failed
			for (const [k, n] of [...Object.entries(a.errors), ...Object.entries(b.errors)])
				errors[k] = (errors[k] ?? 0) + n
		}
		const perFace = (totals.faceS * 1e6) / Math.max(1, totals.face)
		const perWs = (totals.wsS * 1e6) / Math.max(1, totals.ws)
		const cpuFace = totals.faceCpu / Math.max(1, totals.face)
		const cpuWs = totals.wsCpu / Math.max(1, totals.ws)
		const loadFace = totals.faceLoad / Math.max(1, totals.face)
		const loadWs = totals.wsLoad / Math.max(1, totals.ws)
		const ratio = perFace / perWs
		console.log(
			`bot-api-send: face ${perFace.toFixed(0)} µs/message (${(1e6 / perFace).toFixed(0)}/s) at ${cpuFace.toFixed(0)} µs gateway CPU, ` +
				`WebSocket ${perWs.toFixed(0)} µs/message (${(1e6 / perWs).toFixed(0)}/s) at ${cpuWs.toFixed(0)} µs; ` +
				`ratio ${ratio.toFixed(2)} (goal <= ${GOAL}); CPU ratio ${(cpuFace / cpuWs).toFixed(2)}; ` +
				`load process CPU ${loadFace.toFixed(0)} against ${loadWs.toFixed(0)} µs/message; ` +
				`supervisor child CPU ${(totals.faceKids / Math.max(1, totals.face)).toFixed(0)} against ${(totals.wsKids / Math.max(1, totals.ws)).toFixed(0)} µs/message; ` +
				`${totals.face} + ${totals.ws} messages, ${CONCURRENCY} outstanding; load average ${loadavg()[0]?.toFixed(1)}` +
				`${totals.failed ? ` [${totals.failed} failed: ${JSON.stringify(errors)}]` : ''}`,
		)
		if (process.env.BENCH_THREADS) {
			const per = (tally: Map<string, number>, n: number) =>
				[...tally]
					.filter(([, ns]) => ns / 1000 / Math.max(1, n) >= 0.05)
					.map(([name, ns]) => `${name} ${(ns / 1000 / Math.max(1, n)).toFixed(1)}`)
					.join(', ')
			console.log(`gateway CPU by thread, µs/message: face ${per(threadTotals.face, totals.face)}`)
			console.log(`gateway CPU by thread, µs/message: WebSocket ${per(threadTotals.ws, totals.ws)}`)
		}
		if (process.env.BENCH_FLOOR) console.log(await floor(face, ws))
		return ratio <= GOAL && totals.failed === 0 ? 0 : 1
	} finally {
		await t.stop()
	}
}

if (process.env.BENCH_CHILD) {
	const spec = JSON.parse(process.env.BENCH_CHILD) as ChildSpec
	const cpu = process.cpuUsage()
	const result =
		spec.mode === 'ws'
			? await wsLoad(spec)
			: CLIENT === 'fetch'
				? await httpLoad(spec)
				: await rawHttpLoad(spec)
	const used = process.cpuUsage(cpu)
	process.stdout.write(JSON.stringify({ ...result, loadCpuMicros: used.user + used.system }))
	process.exit(0)
} else {
	process.exit(await main())
}
