/**
 * The flood governor's cost: 200 sends across 10 accounts and 10 chats (20 to each account's own
 * chat), all at once, with the emulated cloud's limits on and the governor set to the same limits,
 * on the wall clock. Goals: every message delivered, 0 flood waits on Telegram's side (neither
 * waited out inside the client nor refused), and the time within 1.2x of the limits' own minimum
 * (the first `count` at once, then one every `seconds / count`). Prints the ratio.
 *
 * The governor and the emulated clients run in this process (test/flood/harness.ts): what is
 * measured is the pacing, not IPC.
 */
import { wallClock } from '../../src/runtime/flood/clock'
import { harness, sendText } from '../flood/harness'

const ACCOUNTS = 10
const PER_CHAT = 20
const LIMIT = { count: 5, seconds: 1 }
const limits = { send_chat: LIMIT }
const users: Array<[number, string]> = Array.from({ length: ACCOUNTS }, (_, i) => [
	i + 1,
	`999661${5000 + i}`,
])
const h = await harness({ governor: limits, emulator: { limits, delaySeconds: 2 }, users, clock: wallClock })
/** Each account's chat: a private chat with one of the seed's users. */
const chats = new Map<number, number>()
for (const [id] of users) {
	const chat = await h.rt.invoke(id, { _: 'createPrivateChat', user_id: 1001 + (id % 5), force: false })
	chats.set(id, chat.id)
}
const minimumMs = ((PER_CHAT - LIMIT.count) * LIMIT.seconds * 1000) / LIMIT.count
const started = performance.now()
const sends: Promise<unknown>[] = []
for (let k = 0; k < PER_CHAT; k++)
	for (const [id] of users)
		sends.push(
			h.rt.invoke(id, sendText(chats.get(id) as number, `b${k}`), {
				label: 'send_message',
				timeoutMs: 60_000,
			}),
		)
const results = await Promise.allSettled(sends)
const tookMs = performance.now() - started
let delayed = 0
let refused = 0
for (const [id] of users) {
	const s = (await h.client(id).invoke({ _: 'emulatorFloodStats' } as never)) as {
		delayed: number
		refused: number
	}
	delayed += s.delayed
	refused += s.refused
}
const failedSends = h.events.filter(
	(e) => e.type === 'update' && e.update._ === 'updateMessageSendFailed',
).length
const delivered = results.filter((r) => r.status === 'fulfilled').length - failedSends
h.close()
console.log(
	`flood: ${delivered}/${results.length} delivered, flood waits on Telegram's side ${delayed + refused} (${delayed} waited out, ${refused} refused), ${tookMs.toFixed(0)} ms vs the limits' minimum ${minimumMs} ms: ratio ${(tookMs / minimumMs).toFixed(3)} (goal <= 1.2)`,
)
process.exit(delivered === results.length && delayed + refused === 0 ? 0 : 1)
