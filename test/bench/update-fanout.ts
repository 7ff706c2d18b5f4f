/**
 * Benchmark of live updates: one userbot's updates fanned out to 64 subscribed WebSocket
 * connections, through the emulator → supervisor → IPC → update hub → gateway, against Bun's own
 * `server.publish` of payloads of the same size to 64 sockets subscribed to one topic, in the same
 * run. The subscribers run in a process of their own (this script with `--subscribers`), so they do
 * not share an event loop with the server measured.
 *
 * Printed: delivered events per second of each at full load and their ratio (goal ≥ 0.5); then, at a
 * steady 200 updates a second (12,800 events), the p50/p99 time from the request that makes TDLib
 * emit the update to the socket that receives it (for Bun's publish: from the publish call),
 * measured on the wall clock both processes share. At full load the subscribers are the bottleneck
 * and every time is queueing.
 *
 *   bun test/bench/update-fanout.ts          (BENCH_SECONDS, BENCH_CONNECTIONS)
 */
import { createLoggedInUserbot, registerUser } from '../helpers-ws'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64)
const wallClock = () => performance.timeOrigin + performance.now()

interface SubscriberSpec {
	url: string
	headers: Record<string, string>
	/** Sent once on each socket after it opens (the subscribe frame), or nothing. */
	hello?: Record<string, unknown>
	connections: number
	seconds: number
}

interface SubscriberResult {
	events: number
	seconds: number
	p50: number
	p99: number
}

/** The subscribers' side: counts update events and their latency from the stamp in the text. */
async function subscribers(spec: SubscriberSpec): Promise<SubscriberResult> {
	const latencies: number[] = []
	let events = 0
	let measuring = false
	const sockets = await Promise.all(
		Array.from(
			{ length: spec.connections },
			() =>
				new Promise<WebSocket>((resolve, reject) => {
					const ws = new WebSocket(spec.url, { headers: spec.headers } as unknown as string[])
					ws.onopen = () => {
						if (spec.hello) ws.send(JSON.stringify(spec.hello))
						resolve(ws)
					}
					ws.onerror = () => reject(new Error('subscriber could not connect'))
					ws.onmessage = (event) => {
						if (!measuring) return
						const text = String(event.data)
						const at = text.indexOf('"stamp:')
						if (at < 0) return
						events++
						if (events % 16 === 0)
							latencies.push(wallClock() - Number(text.slice(at + 7, text.indexOf('"', at + 7))))
					}
				}),
		),
	)
	// Tell the parent we are ready; measure for `seconds` once it says go.
	process.stdout.write('READY\n')
	for await (const _ of console) break
	measuring = true
	const started = performance.now()
	await Bun.sleep(spec.seconds * 1000)
	measuring = false
	const seconds = (performance.now() - started) / 1000
	for (const ws of sockets) ws.close()
	const sorted = Float64Array.from(latencies).sort()
	const pick = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0
	return { events, seconds, p50: pick(0.5), p99: pick(0.99) }
}

/** Starts the subscribers' process; resolves once they are connected, with a `go()` that measures. */
async function startSubscribers(spec: SubscriberSpec) {
	const proc = Bun.spawn([process.execPath, import.meta.path, '--subscribers', JSON.stringify(spec)], {
		stdin: 'pipe',
		stdout: 'pipe',
		stderr: 'inherit',
	})
	const reader = proc.stdout.getReader()
	const decoder = new TextDecoder()
	let buffered = ''
	const line = async () => {
		for (;;) {
			const at = buffered.indexOf('\n')
			if (at >= 0) {
				const l = buffered.slice(0, at)
				buffered = buffered.slice(at + 1)
				return l
			}
			const { value, done } = await reader.read()
			if (done) throw new Error('subscribers exited')
			buffered += decoder.decode(value, { stream: true })
		}
	}
	if ((await line()) !== 'READY') throw new Error('subscribers not ready')
	return {
		async go(): Promise<SubscriberResult> {
			proc.stdin.write('go\n')
			proc.stdin.flush()
			return JSON.parse(await line()) as SubscriberResult
		},
	}
}

/**
 * Runs `produce` (one event per call, stamped) with `inflight` at once until `done`; with `perSecond`,
 * one at a time at that steady rate instead.
 */
async function drive(
	produce: (stamp: string) => Promise<unknown>,
	inflight: number,
	done: Promise<unknown>,
	perSecond?: number,
) {
	let running = true
	void done.then(() => {
		running = false
	})
	if (perSecond) {
		const gap = 1000 / perSecond
		for (let next = performance.now(); running; next += gap) {
			await produce(`stamp:${wallClock()}`)
			await Bun.sleep(Math.max(0, next + gap - performance.now()))
		}
		return
	}
	await Promise.all(
		Array.from({ length: inflight }, async () => {
			while (running) await produce(`stamp:${wallClock()}`)
		}),
	)
}

async function ours(perSecond?: number): Promise<SubscriberResult> {
	const { getTestInstance } = await import('../helpers')
	const t = await getTestInstance({ LOG_LEVEL: 'error', UPDATE_BUFFER_SIZE: '1000' })
	try {
		const reader = await registerUser(t, 'fanout-reader@example.com')
		const writer = await registerUser(t, 'fanout-writer@example.com')
		const bob = await createLoggedInUserbot(t, reader.companyId, '9996621234')
		const alice = await createLoggedInUserbot(t, writer.companyId, '9996611111')
		const runtime = t.ctx.runtime!
		const subs = await startSubscribers({
			url: `${t.url.replace('http', 'ws')}/ws`,
			headers: { authorization: `Bearer ${reader.access}` },
			hello: { action: 'subscribe', userbot_id: bob, updates: ['updateNewMessage'] },
			connections: CONNECTIONS,
			seconds: SECONDS,
		})
		const result = subs.go()
		await drive(
			(stamp) =>
				runtime.invoke(alice, {
					_: 'sendMessage',
					chat_id: 1002,
					input_message_content: {
						_: 'inputMessageText',
						text: { _: 'formattedText', text: stamp, entities: [] },
					},
				}),
			64,
			result,
			perSecond,
		)
		return await result
	} finally {
		await t.stop()
	}
}

async function bunPublish(sample: string, perSecond?: number): Promise<SubscriberResult> {
	const server = Bun.serve({
		port: 0,
		hostname: '127.0.0.1',
		fetch(req, srv) {
			return srv.upgrade(req) ? undefined : new Response('no', { status: 400 })
		},
		websocket: {
			open(ws) {
				ws.subscribe('updates')
			},
			message() {},
		},
	})
	try {
		const subs = await startSubscribers({
			url: `ws://127.0.0.1:${server.port}/ws`,
			headers: {},
			connections: CONNECTIONS,
			seconds: SECONDS,
		})
		const result = subs.go()
		let seq = 0
		// The same payload size as ours, the stamp where ours carries it; one turn per 64 publishes.
		await drive(
			async (stamp) => {
				server.publish('updates', sample.replace('STAMP', stamp).replace('"seq":1', `"seq":${++seq}`))
				await new Promise((r) => setImmediate(r))
			},
			64,
			result,
			perSecond,
		)
		return await result
	} finally {
		server.stop(true)
	}
}

if (process.argv[2] === '--subscribers') {
	const result = await subscribers(JSON.parse(process.argv[3]!) as SubscriberSpec)
	process.stdout.write(`${JSON.stringify(result)}\n`)
	process.exit(0)
}

// A real update event of ours as a template for the baseline's payload size.
const template = JSON.stringify({
	type: 'update',
	userbot_id: 1,
	seq: 1,
	update: {
		_: 'updateNewMessage',
		message: {
			_: 'message',
			id: 1048576,
			sender_id: { _: 'messageSenderUser', user_id: 1001 },
			chat_id: 1001,
			content: { _: 'messageText', text: { _: 'formattedText', text: 'STAMP', entities: [] } },
			padding: 'x'.repeat(900),
		},
	},
})
const mine = await ours()
const theirs = await bunPublish(template)
const perSecond = (r: SubscriberResult) => r.events / r.seconds
const fmt = (n: number) => n.toLocaleString('en', { maximumFractionDigits: 0 })
console.log(
	`update fan-out to ${CONNECTIONS} subscribers, full load: ${fmt(perSecond(mine))} events/s against Bun publish ${fmt(perSecond(theirs))} events/s: ratio ${(perSecond(mine) / perSecond(theirs)).toFixed(2)} (goal >= 0.5)`,
)
const steadyMine = await ours(200)
const steadyTheirs = await bunPublish(template, 200)
console.log(
	`at 200 updates/s (${fmt(perSecond(steadyMine))} events/s delivered): TDLib request to socket p50 ${steadyMine.p50.toFixed(2)} ms, p99 ${steadyMine.p99.toFixed(2)} ms; Bun publish to socket p50 ${steadyTheirs.p50.toFixed(2)} ms, p99 ${steadyTheirs.p99.toFixed(2)} ms (p99 ratio ${(steadyMine.p99 / Math.max(steadyTheirs.p99, 0.001)).toFixed(1)}x)`,
)
process.exit(0)
