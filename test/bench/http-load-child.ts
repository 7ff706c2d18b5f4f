/**
 * The load of test/bench/accounts-me.ts, in a process of its own (as wrk would be): `concurrency`
 * fetch loops against one URL for `durationMs`, with the headers given, then one JSON line with
 * what came back. The server's process then spends its CPU on serving only.
 *
 *   bun test/bench/http-load-child.ts URL CONCURRENCY DURATION_MS   (headers: BENCH_HEADERS, JSON)
 */
import { runLoad } from './load'

const [url, concurrency, durationMs] = process.argv.slice(2)
if (!url) throw new Error('usage: http-load-child.ts URL CONCURRENCY DURATION_MS')
const headers = JSON.parse(process.env.BENCH_HEADERS ?? '{}') as Record<string, string>
const result = await runLoad(() => fetch(url, { headers }), {
	concurrency: Number(concurrency ?? 32),
	durationMs: Number(durationMs ?? 1000),
})
console.log(JSON.stringify(result))
process.exit(0)
