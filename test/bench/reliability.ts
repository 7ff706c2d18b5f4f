/**
 * `npm run reliability`: the reliability report. Runs the server as users do (`bun src/entry/main.ts`,
 * emulator backend) in its own process and puts it through the long fuzz (frames and REST bodies),
 * faults (its supervisor killed under load, the whole server killed during registrations), load (a
 * thousand WebSockets, a storm of logins against the hash limit and without it) and clients that
 * stop reading; then prints one table: what was tried, answered, crashed, lost, answered twice,
 * the server's peak RSS and the p99 latency. The properties themselves are CI's
 * (test/reliability/); here they run longer and with figures.
 *
 *   npm run reliability
 *   RELIABILITY_SEED=7 RELIABILITY_FRAMES=100000 npm run reliability      (a longer fuzz)
 *   RELIABILITY_ONLY=frames,rest npm run reliability                      (some scenarios)
 *   npm run reliability -- soak [seconds] [interval seconds]              (the soak alone: 1800, 60)
 *
 * Also: RELIABILITY_REQUESTS, RELIABILITY_SOCKETS, RELIABILITY_LOGINS, RELIABILITY_STALLED.
 */
import { availableParallelism } from 'node:os'
import { serverKill, supervisorKill } from './reliability/faults'
import { fuzzFrames, fuzzHeap, fuzzRest } from './reliability/fuzz'
import { backpressure, loginStorm, manyConnections } from './reliability/load'
import { type Row, table } from './reliability/row'
import { startBenchServer } from './reliability/server'
import { soak } from './reliability/soak'
import { catalog, makeWorld } from './reliability/world'

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback)
const seed = env('RELIABILITY_SEED', 20261122)
const frames = env('RELIABILITY_FRAMES', 50_000)
const requests = env('RELIABILITY_REQUESTS', 2000)
const sockets = env('RELIABILITY_SOCKETS', 1000)
const logins = env('RELIABILITY_LOGINS', 200)
const stalled = env('RELIABILITY_STALLED', 100)
const only = (process.env.RELIABILITY_ONLY ?? '').split(',').filter(Boolean)
const wanted = (name: string) => only.length === 0 || only.includes(name)

const rows: Row[] = []
const report = () => {
	console.log(
		`\nreliability report: ${new Date().toISOString().slice(0, 10)}, ${availableParallelism()} cores, ` +
			`Bun ${Bun.version}; seed ${seed}\n`,
	)
	console.log(table(rows))
	const bad = rows.filter(
		(r) => r.crashes > 0 || r.lost > 0 || r.duplicates > 0 || /FAILED|PROBLEMS|ERRORS/.test(r.notes),
	)
	process.exit(bad.length === 0 ? 0 : 1)
}
const run = async (name: string, scenario: () => Promise<Row>) => {
	if (!wanted(name)) return
	const started = performance.now()
	const row = await scenario()
	rows.push(row)
	console.log(`${name}: done in ${((performance.now() - started) / 1000).toFixed(0)} s`)
}

if (process.argv[2] === 'soak') {
	const seconds = Number(process.argv[3] ?? 1800)
	const interval = Number(process.argv[4] ?? Math.max(10, Math.round(seconds / 30)))
	if (!(seconds > 0 && interval > 0))
		throw new Error('usage: reliability.ts soak [seconds] [interval seconds]')
	await run('soak', () => soak(seconds, interval))
	report()
}

const { commands, routes } = await catalog()
const server = await startBenchServer()
try {
	const world = await makeWorld(server, 'main')
	await run('frames', () => fuzzFrames(world, commands, seed, frames))
	await run('rest', () => fuzzRest(world, routes, seed, requests))
	await run('connections', () => manyConnections(world, sockets, 20))
	await run('supervisor', () => supervisorKill(world, 6))
} finally {
	await server.stop()
}
await run('heap', () => fuzzHeap(seed, 5, 400))
await run('registrations', () => serverKill(240))
await run('logins', () => loginStorm(logins))
await run('logins', () => loginStorm(logins, logins))
await run('backpressure', () => backpressure(stalled, 200))

report()
