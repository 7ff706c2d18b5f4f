import { heapStats } from 'bun:jsc'
import fc from 'fast-check'
import { fieldsOf } from '../../gateway/schema-fields'
import { createLoggedInUserbot, createMessagingFixture } from '../../helpers-ws'
import { type CatalogEntry, frameArbitrary } from '../../reliability/frame-arbitraries'
import { openFuzzSocket, sendOversize } from '../../reliability/frame-driver'
import { type Route, requestArbitrary } from '../../reliability/rest-arbitraries'
import { type RestState, sendRest } from '../../reliability/rest-driver'
import type { Row } from './row'
import { peakRssMb, percentile, resetPeak, sampleRss, token } from './server'
import { supervisorPid, type World } from './world'

/** Memory settles when the last quarter of the run holds no more than the second: medians, in MB. */
export function settles(samples: readonly number[]): string {
	if (samples.length < 8) return 'RSS: too short a run to tell'
	const median = (xs: readonly number[]) => Float64Array.from(xs).sort()[xs.length >> 1]!
	const q = samples.length >> 2
	const second = median(samples.slice(q, 2 * q))
	const last = median(samples.slice(3 * q))
	return `RSS median ${second.toFixed(0)} MB in the 2nd quarter, ${last.toFixed(0)} MB in the last`
}

/** The long frame fuzz: `count` frames from `seed`, in batches of 20 to 80. */
export async function fuzzFrames(
	w: World,
	commands: CatalogEntry[],
	seed: number,
	count: number,
): Promise<Row> {
	resetPeak(w.server.pid)
	const supervisor = supervisorPid(w.server)
	const socket = await openFuzzSocket(w.server.url, w.alice.access)
	const frames = fc.array(
		frameArbitrary(commands, { userbotId: w.userbotId, foreignUserbotId: w.foreignUserbotId }),
		{ minLength: 20, maxLength: 80, size: 'max' },
	)
	let failure = ''
	const rss = sampleRss(w.server.pid, 500)
	try {
		await fc.assert(
			fc.asyncProperty(frames, async (batch) => {
				const problems = await socket.runBatch(batch, 35_000)
				if (problems.length > 0) throw new Error(problems.slice(0, 3).join('\n'))
			}),
			{ seed, numRuns: Math.ceil(count / 50), endOnFailure: true },
		)
	} catch (err) {
		failure = err instanceof Error ? err.message.split('\n').slice(0, 4).join(' / ') : String(err)
	}
	const totals = await socket.finish(500)
	const samples = rss.stop()
	// Oversize frames: each a clean 1009, no reply.
	let oversize = 0
	for (const bytes of [1024 * 1024, 4 * 1024 * 1024]) {
		const { close, messages } = await sendOversize(w.server.url, w.alice.access, bytes)
		if (close.code === 1009 && messages.length === 0) oversize++
	}
	const crashed =
		(w.server.proc.proc.exitCode === null ? 0 : 1) + (supervisorPid(w.server) === supervisor ? 0 : 1)
	return {
		scenario: `fuzz frames (seed ${seed})`,
		tried: totals.frames,
		replies: totals.replies,
		crashes: crashed,
		lost: totals.lost,
		duplicates: totals.duplicates,
		maxRssMb: peakRssMb(w.server.pid),
		p99Ms: percentile(totals.latencies, 0.99),
		notes:
			`${commands.length} commands + 3 gateway frames; ${totals.leaks.length} leaks; ` +
			`${oversize}/2 oversize closed 1009; ${settles(samples)}` +
			(totals.closedUnexpectedly ? `; socket closed ${totals.closedUnexpectedly.code}` : '') +
			(failure ? `; FAILED: ${failure}` : ''),
	}
}

/** The long REST fuzz: `count` requests from `seed` against every route, 10 to 30 at once. */
export async function fuzzRest(w: World, routes: Route[], seed: number, count: number): Promise<Row> {
	resetPeak(w.server.pid)
	const supervisor = supervisorPid(w.server)
	const url = w.server.url
	const invite = await fetch(`${url}/accounts/invites/`, {
		method: 'POST',
		headers: { authorization: `Bearer ${w.alice.access}`, 'content-type': 'application/json' },
		body: '{}',
	})
	const state: RestState = {
		bearer: await token(url, w.alice.email),
		// A userbot of its own to delete and log in, not the one the other scenarios use.
		userbotId: 0,
		inviteId: ((await invite.json()) as { id: number }).id,
	}
	const restore = async () => {
		const me = await fetch(`${url}/accounts/me/`, { headers: { authorization: `Bearer ${state.bearer}` } })
		if (me.status !== 200) state.bearer = await token(url, w.alice.email)
		const bot = await fetch(`${url}/api/userbots/${state.userbotId}/`, {
			headers: { authorization: `Bearer ${state.bearer}` },
		})
		if (bot.status === 404) {
			const made = await fetch(`${url}/api/userbots/`, {
				method: 'POST',
				headers: { authorization: `Bearer ${state.bearer}`, 'content-type': 'application/json' },
				body: '{"name": "fuzz"}',
			})
			state.userbotId = ((await made.json()) as { id: number }).id
		}
	}
	let sent = 0
	let answered = 0
	const problems: string[] = []
	const latencies: number[] = []
	// Family B is not configured on this server (no main server): its routes are not there.
	const candidates = routes.filter((r) => !r.path.startsWith('/api/accounts/'))
	const requests = fc.array(requestArbitrary(candidates, { foreignUserbotId: w.foreignUserbotId }), {
		minLength: 10,
		maxLength: 30,
		size: 'max',
	})
	await fc.assert(
		fc.asyncProperty(requests, async (batch) => {
			await restore()
			const answers = await Promise.all(
				batch.map(async (req) => {
					const at = performance.now()
					const a = await sendRest(url, req, state)
					latencies.push(performance.now() - at)
					return a
				}),
			)
			sent += batch.length
			for (const a of answers) {
				if (a.status !== 0) answered++
				if (a.problem && problems.length < 5) problems.push(a.problem)
			}
		}),
		{ seed, numRuns: Math.ceil(count / 20) },
	)
	const crashed =
		(w.server.proc.proc.exitCode === null ? 0 : 1) + (supervisorPid(w.server) === supervisor ? 0 : 1)
	return {
		scenario: `fuzz REST (seed ${seed})`,
		tried: sent,
		replies: answered,
		crashes: crashed,
		lost: sent - answered,
		duplicates: 0,
		maxRssMb: peakRssMb(w.server.pid),
		p99Ms: percentile(latencies, 0.99),
		notes: `${candidates.length} routes; ${problems.length === 0 ? 'no 5xx, non-JSON or leak' : `PROBLEMS: ${problems.join(' / ').slice(0, 300)}`}`,
	}
}

/**
 * "Memory settles", measured where a full collection can be forced: an app in this process fuzzed
 * in `rounds` rounds of `batches` batches, the heap read after `Bun.gc(true)` at the end of each.
 * A server that kept something per frame would grow round after round; the fuzz client in the
 * same heap keeps every request id it answered (a few hundred KB a round).
 */
export async function fuzzHeap(seed: number, rounds: number, batches: number): Promise<Row> {
	const f = await createMessagingFixture({ COMMAND_TIMEOUT: '3000' })
	try {
		const foreignUserbotId = await createLoggedInUserbot(f.t, f.mallory.companyId, '9996614444')
		const commands = [...f.t.commands].map(([name, { command }]) => ({
			name,
			fields: fieldsOf(command.input),
		}))
		const socket = await openFuzzSocket(f.t.url, f.alice.access)
		const frames = fc.array(frameArbitrary(commands, { userbotId: f.userbotId, foreignUserbotId }), {
			minLength: 20,
			maxLength: 80,
			size: 'max',
		})
		const heaps: number[] = []
		let problems = ''
		for (let round = 0; round < rounds; round++) {
			await fc.assert(
				fc.asyncProperty(frames, async (batch) => {
					const found = await socket.runBatch(batch, 6000)
					if (found.length > 0 && !problems) problems = found[0]!
				}),
				{ seed: seed + round, numRuns: batches },
			)
			Bun.gc(true)
			await Bun.sleep(100)
			Bun.gc(true)
			heaps.push(heapStats().heapSize / 1024 ** 2)
		}
		const totals = await socket.finish(500)
		const pending = f.t.socketStats().waitingBytes
		return {
			scenario: `fuzz frames, heap after GC (in-process, seeds ${seed}+)`,
			tried: totals.frames,
			replies: totals.replies,
			crashes: f.t.ctx.runtime?.health().restarts ?? 0,
			lost: totals.lost,
			duplicates: totals.duplicates,
			maxRssMb: process.memoryUsage().rss / 1024 ** 2,
			p99Ms: percentile(totals.latencies, 0.99),
			notes:
				`heap after each round of ${batches} batches: ${heaps.map((h) => h.toFixed(1)).join(', ')} MB; ${pending} bytes waiting ` +
				`for the socket at the end; RSS is this process's (app and client)` +
				(problems ? `; PROBLEMS: ${problems.slice(0, 200)}` : ''),
		}
	} finally {
		await f.stop()
	}
}
