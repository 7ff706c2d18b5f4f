/**
 * Every core (issue 30): the WebSocket command path (`get_default_message_auto_delete_time`, client
 * → gateway → bus → shard → child → emulator and back) with 1, 2 and 4 gateway processes on one port
 * (`ROLE=gateway GATEWAYS=N`, the one command; 1 is a plain gateway), against M shards, on one real
 * nats-server. Printed as ratios to one gateway with the same shards and to 1 gateway × 1 shard, all
 * measured in this run, with the machine's core count: on a machine with few cores the gateways,
 * shards, nats-server and the load generator share them.
 *
 *   bun test/bench/gateways.ts   (BENCH_GATEWAYS=1,2,4 BENCH_SHARDS=1,2 BENCH_SECONDS=4
 *                                 BENCH_CONNECTIONS=64 BENCH_INFLIGHT=4)
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import {
	clusterEnv,
	loggedInOverRest,
	PLAIN_PHONES,
	SERVER_ENTRY,
	type ShardProcess,
	startGateway,
	startNats,
	startShard,
	userbotsRest,
} from '../bus/cluster'
import { readUntil, terminate } from '../bus/nats'
import { registerUser } from '../helpers-ws'
import { cpuOf, type LoadResult, loadFromChild } from './ws-load'

const list = (text: string) => text.split(',').map(Number)
const GATEWAYS = list(process.env.BENCH_GATEWAYS ?? '1,2,4')
const SHARDS = list(process.env.BENCH_SHARDS ?? '1,2')
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64)
const INFLIGHT = Number(process.env.BENCH_INFLIGHT ?? 4)
const ACTION = 'get_default_message_auto_delete_time'

/** `ROLE=gateway GATEWAYS=n` as an operator runs it; resolves with its URL and the gateways' pids. */
async function startFleet(env: Record<string, string>, n: number) {
	const lines: string[] = []
	const proc = Bun.spawn([process.execPath, '--no-env-file', SERVER_ENTRY], {
		env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env, ROLE: 'gateway' },
		stdout: 'ignore',
		stderr: 'pipe',
	})
	const pattern = n === 1 ? /"msg":"listening"/ : /"msg":"gateways listening"/
	await readUntil(proc.stderr, pattern, 60_000, lines)
	const line = JSON.parse(lines.find((l) => pattern.test(l)) as string) as { url: string; pids?: number[] }
	return { proc, url: line.url, pids: line.pids ?? [proc.pid] }
}

async function measure(env: Record<string, string>, gateways: number, access: string, userbots: number[]) {
	const fleet = await startFleet(
		{ ...env, GATEWAYS: String(gateways), PORT: '0', LOG_LEVEL: 'info' },
		gateways,
	)
	try {
		const before = await Promise.all(fleet.pids.map(cpuOf))
		const result = await loadFromChild({
			url: `${fleet.url.replace(/^http/, 'ws')}/ws`,
			headers: { authorization: `Bearer ${access}` },
			frames: userbots.map((id) => ({ action: ACTION, userbot_id: id })),
			connections: CONNECTIONS,
			inflight: INFLIGHT,
			seconds: SECONDS,
			warmupSeconds: 1,
		})
		const after = await Promise.all(fleet.pids.map(cpuOf))
		const busy = after.reduce((sum, c, i) => sum + c - (before[i] as number), 0) / (SECONDS + 1)
		return { result, busy }
	} finally {
		await terminate(fleet.proc)
	}
}

async function withShards(shardCount: number) {
	const nats = await startNats()
	const dataDir = mkdtempSync(join(tmpdir(), 'ubg-bench-gateways-'))
	// The tests' 300 ms heartbeat takes a starved shard for gone on a busy machine: a deployment's 1 s.
	const env = { ...clusterEnv(nats, dataDir), BUS_HEARTBEAT: '1000', LOG_LEVEL: 'error' }
	const setup = await startGateway(env, dataDir)
	const shards: ShardProcess[] = []
	try {
		for (let i = 1; i <= shardCount; i++) shards.push(await startShard(env, `s${i}`))
		const user = await registerUser(setup, `bench-${Date.now()}@example.com`)
		const post = userbotsRest(setup.url, user.access)
		const userbots: number[] = []
		for (const phone of PLAIN_PHONES) userbots.push(await loggedInOverRest(post, phone, `bench ${phone}`))
		const out: { gateways: number; result: LoadResult; busy: number }[] = []
		for (const g of GATEWAYS) out.push({ gateways: g, ...(await measure(env, g, user.access, userbots)) })
		return out
	} finally {
		await Promise.allSettled([...shards.map((s) => s.stop()), setup.halt()])
		await nats.stop()
		rmSync(dataDir, { recursive: true, force: true })
	}
}

const cores = availableParallelism()
console.log(
	`gateways: ${cores} cores; ${CONNECTIONS} connections x ${INFLIGHT} in flight, ${SECONDS}s, emulator, one nats-server`,
)
let base: number | undefined
for (const m of SHARDS) {
	const runs = await withShards(m)
	const one = runs.find((r) => r.gateways === 1) ?? runs[0]
	const oneRate = one ? one.result.count / one.result.seconds : Number.NaN
	base ??= oneRate
	for (const { gateways, result, busy } of runs) {
		const rate = result.count / result.seconds
		console.log(
			`gateways: ${m} shard(s) x ${gateways} gateway(s): ${rate.toFixed(0)} cmd/s, p50 ${result.p50.toFixed(1)}ms p99 ${result.p99.toFixed(1)}ms` +
				`${result.errors ? ` (${result.errors} errors: ${JSON.stringify(result.kinds)})` : ''}; ${(rate / oneRate).toFixed(2)} x 1 gateway, ` +
				`${(rate / base).toFixed(2)} x 1 shard x 1 gateway; gateways ${busy.toFixed(2)} cores busy, load ${(result.cpu / result.seconds).toFixed(2)}`,
		)
	}
}
console.log(
	`gateways: goal on >= 8 cores: 4 gateways >= 3 x one${cores < 8 ? ` (not reachable here: ${cores} cores shared by gateways, shards, nats-server and the load)` : ''}`,
)
process.exit(0)
