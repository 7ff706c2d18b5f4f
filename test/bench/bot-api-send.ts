/**
 * Benchmark of the Bot API face (docs/bot-api.md): sendMessage through `/bot<token>/sendMessage`
 * against the same command, `send_message` with `wait_sent`, over the WebSocket, the same number of
 * messages each, in one run, on the emulator. The load comes from a process of its own (this file,
 * `BENCH_CHILD` in its environment) so that it shares no event loop with the gateway it measures:
 * `BENCH_CONCURRENCY` requests outstanding (HTTP: that many fetch loops; WebSocket: one socket with
 * that many frames in flight, as a client of the channel runs them). Rounds alternate, so a noisy
 * machine weighs on both alike. Goal: the face costs at most 1.25 times the WebSocket per message
 * (wall time per message, the ratio face over WebSocket); it also prints the gateway's CPU per
 * message of each and their ratio.
 *
 *   bun test/bench/bot-api-send.ts   (BENCH_MESSAGES, BENCH_CONCURRENCY, BENCH_ROUNDS)
 *
 * `BENCH_ONLY=face` (or `ws`) runs one side alone, for a profile of it (`bun --cpu-prof`): no ratio.
 */
import { loadavg } from 'node:os'
import { getTestInstance } from '../helpers'
import { createLoggedInUserbot, registerUser } from '../helpers-ws'

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 3000)
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const GOAL = 1.25
const ONLY = process.env.BENCH_ONLY
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
}

/** `count` requests, `concurrency` outstanding, over HTTP. */
async function httpLoad(spec: ChildSpec): Promise<ChildResult> {
	let next = 0
	let ok = 0
	let failed = 0
	const errors: Record<string, number> = {}
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
				const answer = (await res.json()) as { ok?: boolean; description?: string }
				if (answer.ok === true) ok++
				else {
					failed++
					const why = String(answer.description)
					errors[why] = (errors[why] ?? 0) + 1
				}
			} catch {
				failed++
			}
		}
	}
	await Promise.all(Array.from({ length: spec.concurrency }, loop))
	return { ok, failed, seconds: (performance.now() - started) / 1000, errors }
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

/** One round from a process of its own, with the CPU this process (the gateway) spent serving it. */
async function round(spec: ChildSpec) {
	const cpu = process.cpuUsage()
	const child = Bun.spawn([process.execPath, import.meta.path], {
		env: { ...process.env, BENCH_CHILD: JSON.stringify(spec) },
		stdout: 'pipe',
		stderr: 'inherit',
	})
	const out = await new Response(child.stdout).text()
	if ((await child.exited) !== 0) throw new Error('the load process failed')
	const used = process.cpuUsage(cpu)
	return { ...(JSON.parse(out) as ChildResult), cpuMicros: used.user + used.system }
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
		await round({ ...face, count: 100 })
		await round({ ...ws, count: 100 })
		const totals = { face: 0, faceS: 0, faceCpu: 0, ws: 0, wsS: 0, wsCpu: 0, failed: 0 }
		const errors: Record<string, number> = {}
		for (let i = 0; i < ROUNDS; i++) {
			const none = { ok: 0, failed: 0, seconds: 0, errors: {} as Record<string, number>, cpuMicros: 0 }
			const a = ONLY === 'ws' ? none : await round(face)
			const b = ONLY === 'face' ? none : await round(ws)
			totals.face += a.ok
			totals.faceS += a.seconds
			totals.faceCpu += a.cpuMicros
			totals.ws += b.ok
			totals.wsS += b.seconds
			totals.wsCpu += b.cpuMicros
			totals.failed += a.failed + b.failed
			for (const [k, n] of [...Object.entries(a.errors), ...Object.entries(b.errors)])
				errors[k] = (errors[k] ?? 0) + n
		}
		const perFace = (totals.faceS * 1e6) / Math.max(1, totals.face)
		const perWs = (totals.wsS * 1e6) / Math.max(1, totals.ws)
		const cpuFace = totals.faceCpu / Math.max(1, totals.face)
		const cpuWs = totals.wsCpu / Math.max(1, totals.ws)
		const ratio = perFace / perWs
		console.log(
			`bot-api-send: face ${perFace.toFixed(0)} µs/message (${(1e6 / perFace).toFixed(0)}/s) at ${cpuFace.toFixed(0)} µs gateway CPU, ` +
				`WebSocket ${perWs.toFixed(0)} µs/message (${(1e6 / perWs).toFixed(0)}/s) at ${cpuWs.toFixed(0)} µs; ` +
				`ratio ${ratio.toFixed(2)} (goal <= ${GOAL}); CPU ratio ${(cpuFace / cpuWs).toFixed(2)}; ` +
				`${totals.face} + ${totals.ws} messages, ${CONCURRENCY} outstanding; load average ${loadavg()[0]?.toFixed(1)}` +
				`${totals.failed ? ` [${totals.failed} failed: ${JSON.stringify(errors)}]` : ''}`,
		)
		return ratio <= GOAL && totals.failed === 0 ? 0 : 1
	} finally {
		await t.stop()
	}
}

if (process.env.BENCH_CHILD) {
	const spec = JSON.parse(process.env.BENCH_CHILD) as ChildSpec
	const result = spec.mode === 'http' ? await httpLoad(spec) : await wsLoad(spec)
	process.stdout.write(JSON.stringify(result))
	process.exit(0)
} else {
	process.exit(await main())
}
