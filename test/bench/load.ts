/**
 * A small, bounded load generator for the benchmarks: `concurrency` fetch loops against one URL
 * for `durationMs`, counting answers with the expected status. It stops by itself.
 */
export interface LoadResult {
	ok: number
	failed: number
	seconds: number
	perSecond: number
}

export interface LoadOptions {
	concurrency?: number
	durationMs?: number
	expectStatus?: number
}

export async function runLoad(request: () => Promise<Response>, opts: LoadOptions = {}): Promise<LoadResult> {
	const { concurrency = 64, durationMs = 3000, expectStatus = 200 } = opts
	let ok = 0
	let failed = 0
	const started = performance.now()
	const deadline = started + durationMs
	const loop = async () => {
		while (performance.now() < deadline) {
			try {
				const res = await request()
				await res.arrayBuffer()
				if (res.status === expectStatus) ok++
				else failed++
			} catch {
				failed++
			}
		}
	}
	await Promise.all(Array.from({ length: concurrency }, loop))
	const seconds = (performance.now() - started) / 1000
	return { ok, failed, seconds, perSecond: ok / seconds }
}
