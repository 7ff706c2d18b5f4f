import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import fc from 'fast-check'
import { fieldsOf } from '../gateway/schema-fields'
import { createLoggedInUserbot, createMessagingFixture, type MessagingFixture } from '../helpers-ws'
import { type CatalogEntry, frameArbitrary } from './frame-arbitraries'
import { describeFrame, openFuzzSocket, sendOversize } from './frame-driver'
import { runtimeCounts } from './runtime-counts'

/**
 * Issue 13: random and mutated frames against every registered command of every group and the
 * gateway's own frames (subscribe, unsubscribe, authenticate). Seeded and bounded, so CI stays fast;
 * fast-check prints the seed and path of a failing run, and `FUZZ_SEED=<seed> FUZZ_RUNS=<n>` replays
 * or widens it (test/bench/reliability.ts runs the long version). Every frame gets exactly one
 * reply, none leaks a stack or a library's words, the socket and the supervisor stay up, and once
 * it is over nothing is left waiting anywhere.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261122)
const RUNS = Number(process.env.FUZZ_RUNS ?? 60)

/**
 * Drawn by name, it would log the fuzzed account out of Telegram for good, and every later frame
 * would test only `userbot is not authorized` (test/plugins/userbots/operation-faces.test.ts tries it).
 */
const ENDS_THE_SESSION = new Set(['userbot_log_out'])
/**
 * Drawn by name, a frame of theirs that passes its checks waits up to its `timeout_s` (60 s when
 * absent) for a message nobody sends, past the batch's 6 s: their frames are tried in
 * test/plugins/commands-messages/conversations.test.ts.
 */
const WAIT_FOR_MESSAGES = new Set(['wait_for_message', 'send_and_wait'])
const LEFT_OUT = new Set([...ENDS_THE_SESSION, ...WAIT_FOR_MESSAGES])

let f: MessagingFixture
let foreignUserbotId: number
let catalog: CatalogEntry[]

beforeAll(async () => {
	// A short deadline: a frame that hangs shows up as `timeout`, not as a lost reply.
	f = await createMessagingFixture({ COMMAND_TIMEOUT: '3000' })
	foreignUserbotId = await createLoggedInUserbot(f.t, f.mallory.companyId, '9996614444')
	catalog = [...f.t.commands]
		.filter(([name]) => !LEFT_OUT.has(name))
		.map(([name, { command }]) => ({ name, fields: fieldsOf(command.input) }))
})
afterAll(() => f.stop())

describe('fuzzed WebSocket frames', () => {
	it('each get exactly one clean reply, and nothing dies or stays behind', async () => {
		// Every group's commands are in the catalog the frames are drawn from.
		expect(catalog.length).toBe(f.t.commands.size - LEFT_OUT.size)
		expect(catalog.length).toBeGreaterThanOrEqual(60)
		const pidBefore = runtimeCounts(f.t).pid
		const socket = await openFuzzSocket(f.t.url, f.alice.access)
		const frames = fc.array(frameArbitrary(catalog, { userbotId: f.userbotId, foreignUserbotId }), {
			minLength: 20,
			maxLength: 80,
			size: 'max',
		})
		const seen = new Set<string>()
		await fc.assert(
			fc.asyncProperty(frames, async (batch) => {
				for (const frame of batch) if (frame.kind === 'json') seen.add(String(frame.value.action))
				const problems = await socket.runBatch(batch, 6000)
				if (problems.length > 0) {
					throw new Error(
						`${problems.slice(0, 5).join('\n')}\nbatch:\n${batch.map(describeFrame).slice(0, 20).join('\n')}`,
					)
				}
			}),
			{ seed: SEED, numRuns: RUNS, endOnFailure: true },
		)
		const totals = await socket.finish(300)
		if (process.env.FUZZ_VERBOSE) console.log([...totals.outcomes].sort((a, b) => b[1] - a[1]))
		expect(totals.frames).toBeGreaterThanOrEqual(RUNS * 20)
		expect(totals.replies).toBe(totals.frames)
		expect(totals.lost).toBe(0)
		expect(totals.duplicates).toBe(0)
		expect(totals.leaks).toEqual([])
		expect(totals.closedUnexpectedly).toBeNull()
		// Most commands of the catalog were drawn by name.
		expect([...seen].filter((a) => f.t.commands.has(a)).length).toBeGreaterThan(catalog.length * 0.8)

		// Nothing died, nothing waits: no request pending towards the supervisor, no command running,
		// no reply queued for a socket.
		const after = runtimeCounts(f.t)
		expect(after.pid).toBe(pidBefore)
		expect(after.restarts).toBe(0)
		expect(after.pendingRequests).toBe(0)
		expect(f.t.socketStats().waitingBytes).toBe(0)
		// The userbot still answers.
		const c = await f.connect()
		const reply = await c.command({ action: 'get_default_message_auto_delete_time', userbot_id: f.userbotId })
		expect(reply.payload.error).toBeUndefined()
	}, 120_000)

	it('closes the socket with 1009 for a frame over 1 MiB, and answers one just under it', async () => {
		for (const bytes of [1024 * 1024, 3 * 1024 * 1024]) {
			const { close, messages } = await sendOversize(f.t.url, f.alice.access, bytes)
			expect(close.code).toBe(1009)
			expect(messages).toEqual([])
		}
		// The frame's JSON around the filler takes about 80 bytes: this one is under the limit.
		const { close, messages } = await sendOversize(f.t.url, f.alice.access, 1024 * 1024 - 200)
		expect(close.code).not.toBe(1009)
		expect(messages).toHaveLength(1)
		expect(JSON.parse(messages[0]!).payload.type).toBe('send_message_error')
		expect(runtimeCounts(f.t).restarts).toBe(0)
	}, 30_000)
})
