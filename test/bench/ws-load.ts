/**
 * A WebSocket load generator for the benchmarks, run in a process of its own (`loadFromChild`) so
 * that it shares no event loop with the servers it measures: `inflight` commands outstanding on each
 * of `connections` sockets for `seconds` after `warmupSeconds`, connection i sending `frames[i % n]`.
 */
export interface LoadSpec {
	url: string
	headers: Record<string, string>
	frames: Record<string, unknown>[]
	connections: number
	inflight: number
	seconds: number
	warmupSeconds: number
}

export interface LoadResult {
	/** CPU seconds the load generator itself spent while measuring. */
	cpu: number
	count: number
	seconds: number
	p50: number
	p99: number
	errors: number
	/** The distinct errors seen, with their counts. */
	kinds: Record<string, number>
}

const percentile = (sorted: Float64Array, p: number) =>
	sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0

function openLoaded(
	spec: LoadSpec,
	conn: number,
	sample: (ms: number, error: string | undefined) => void,
	live: () => boolean,
) {
	const ws = new WebSocket(spec.url, { headers: spec.headers } as unknown as string[])
	const frame = spec.frames[conn % spec.frames.length] as Record<string, unknown>
	const sentAt = new Map<number, number>()
	let next = 0
	const sendOne = () => {
		const id = next++
		sentAt.set(id, performance.now())
		ws.send(JSON.stringify({ ...frame, request_id: id }))
	}
	ws.onmessage = (event) => {
		const reply = JSON.parse(String(event.data)) as {
			request_id?: number
			payload?: { request_id?: number; error?: string }
		}
		// The gateway echoes request_id in the payload; an echo server sends the frame back as it was.
		const id = reply.payload?.request_id ?? reply.request_id
		if (id === undefined) return
		const started = sentAt.get(id)
		sentAt.delete(id)
		if (started !== undefined) sample(performance.now() - started, reply.payload?.error)
		if (live()) sendOne()
	}
	const opened = new Promise<void>((resolve, reject) => {
		ws.onopen = () => {
			for (let i = 0; i < spec.inflight; i++) sendOne()
			resolve()
		}
		ws.onerror = () => reject(new Error(`connection ${conn} failed`))
	})
	return { ws, opened }
}

export async function generateLoad(spec: LoadSpec): Promise<LoadResult> {
	const latencies: number[] = []
	let errors = 0
	let measuring = false
	let running = true
	const kinds: Record<string, number> = {}
	const sample = (ms: number, error: string | undefined) => {
		if (!measuring) return
		latencies.push(ms)
		if (error === undefined) return
		errors++
		kinds[error] = (kinds[error] ?? 0) + 1
	}
	const sockets = Array.from({ length: spec.connections }, (_, i) =>
		openLoaded(spec, i, sample, () => running),
	)
	await Promise.all(sockets.map((s) => s.opened))
	await Bun.sleep(spec.warmupSeconds * 1000)
	measuring = true
	const started = performance.now()
	const cpuStart = process.cpuUsage()
	await Bun.sleep(spec.seconds * 1000)
	measuring = false
	const cpuUsed = process.cpuUsage(cpuStart)
	const seconds = (performance.now() - started) / 1000
	running = false
	for (const s of sockets) s.ws.close()
	const sorted = Float64Array.from(latencies).sort()
	return {
		cpu: (cpuUsed.user + cpuUsed.system) / 1e6,
		count: sorted.length,
		seconds,
		p50: percentile(sorted, 0.5),
		p99: percentile(sorted, 0.99),
		errors,
		kinds,
	}
}

/** CPU seconds a process has used so far (Linux /proc), or NaN when it is gone or unknown. */
export async function cpuOf(pid: number | undefined): Promise<number> {
	try {
		const stat = await Bun.file(`/proc/${pid}/stat`).text()
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
		return (Number(fields[11]) + Number(fields[12])) / 100
	} catch {
		return Number.NaN
	}
}

/** Runs `generateLoad` in a child process (this file, `BENCH_SPEC` in its environment). */
export async function loadFromChild(spec: LoadSpec): Promise<LoadResult> {
	const proc = Bun.spawn([process.execPath, import.meta.path], {
		env: { ...process.env, BENCH_SPEC: JSON.stringify(spec) },
		stdout: 'pipe',
		stderr: 'inherit',
	})
	const out = await new Response(proc.stdout).text()
	if ((await proc.exited) !== 0) throw new Error('load generator failed')
	return JSON.parse(out) as LoadResult
}

if (import.meta.main) {
	const result = await generateLoad(JSON.parse(process.env.BENCH_SPEC ?? '{}') as LoadSpec)
	process.stdout.write(JSON.stringify(result))
	process.exit(0)
}
