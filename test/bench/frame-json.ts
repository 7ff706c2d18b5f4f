/**
 * Benchmark: the gateway's frame parse (`parseFrame`, lossless for integers past 2^53) against plain
 * `JSON.parse` of the same text, in the same run, interleaved in small batches so a noisy machine
 * weighs on both alike (the median of BENCH_ROUNDS rounds). Frames: a typical command and large ones without an integer past 2^53 (the fast paths: a
 * scan for 16 digits, or a walk of the values past 512 characters), and frames carrying int64 ids as JSON
 * integers (the reviver's path). Goal: the fast paths take at most 1.5x JSON.parse's time. It also
 * prints what the frame parse adds per frame in microseconds: a whole command through the gateway
 * takes tens of microseconds (`ws-commands`), so a tenth of one is what the hot path pays; the reviver's
 * path is printed for what it is.
 *
 *   node_modules/.bin/bun test/bench/frame-json.ts        (BENCH_ROUNDS, BENCH_MS)
 */
import { parseFrame } from '../../src/server/gateway/frame-json'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const MS = Number(process.env.BENCH_MS ?? 300)
const GOAL = 1.5

const frames: Record<string, string> = {
	'typical command': JSON.stringify({
		action: 'send_message',
		userbot_id: 12,
		chat_id: -1001234567890,
		text: 'Hello there, see you at 10:30 on 2026-11-22',
		reply_to: { '@type': 'inputMessageReplyToMessage', message_id: 1048576 },
		request_id: 'r-42',
	}),
	'large text (64 KiB), digits in it': JSON.stringify({
		action: 'send_message',
		userbot_id: 12,
		chat_id: -1001234567890,
		text: 'lorem ipsum dolor sit amet 0123456789 '.repeat(1725),
		request_id: 7,
	}),
	'100 message ids': JSON.stringify({
		action: 'delete_messages',
		userbot_id: 12,
		chat_id: -1001234567890,
		message_ids: Array.from({ length: 100 }, (_, i) => (i + 1) * 1048576),
		request_id: 'r-44',
	}),
	'session id as a JSON integer': `{"action":"terminate_session","userbot_id":12,"session_id":3088675158945946166,"request_id":"r-43"}`,
	'ids past 2^53 in a large frame': `{"action":"set_reaction","userbot_id":12,"chat_id":-1001234567890,"message_id":1048576,"reaction":[${Array.from(
		{ length: 10 },
		(_, i) => `{"@type":"reactionTypeCustomEmoji","custom_emoji_id":${5368324170671202286n + BigInt(i)}}`,
	).join(',')}],"text":"${'x'.repeat(60_000)}"}`,
}

/**
 * Parses per second of each parser over `text`, measured interleaved in small batches (one of each,
 * in turn, for about MS milliseconds): load from elsewhere on the machine falls on both alike.
 */
function rates(text: string): { plain: number; ours: number } {
	const batch = text.length > 10_000 ? 5 : 100
	let plainMs = 0
	let oursMs = 0
	let n = 0
	let sink = 0
	const time = (parse: (t: string) => unknown) => {
		const start = performance.now()
		for (let i = 0; i < batch; i++) sink += (parse(text) as { action?: unknown }).action === undefined ? 0 : 1
		return performance.now() - start
	}
	while (plainMs + oursMs < MS) {
		plainMs += time(JSON.parse)
		oursMs += time(parseFrame)
		n += batch
	}
	if (sink !== 2 * n) throw new Error('a frame lost its action')
	return { plain: (n / plainMs) * 1000, ours: (n / oursMs) * 1000 }
}

let failed = false
for (const [name, text] of Object.entries(frames)) {
	const plain: number[] = []
	const ours: number[] = []
	for (let round = 0; round < ROUNDS; round++) {
		const r = rates(text)
		plain.push(r.plain)
		ours.push(r.ours)
	}
	const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
	const ratio = median(plain) / median(ours)
	// The reviver's path: a long run of digits in a short frame, an integer past 2^53 in a long one.
	const fast = text.length > 512 ? !/[:,[]-?\d{16}/.test(text) : !/\d{16}/.test(text)
	const verdict = fast ? (ratio <= GOAL ? 'ok' : `over the goal of ${GOAL}`) : 'reviver path'
	if (fast && ratio > GOAL) failed = true
	const addedUs = (1 / median(ours) - 1 / median(plain)) * 1e6
	console.log(
		`${name} (${(text.length / 1024).toFixed(1)} KiB): parseFrame ${Math.round(median(ours)).toLocaleString('en')}/s, JSON.parse ${Math.round(median(plain)).toLocaleString('en')}/s: ${ratio.toFixed(2)}x the time, ${addedUs.toFixed(2)} µs more a frame (${verdict})`,
	)
}
process.exit(failed ? 1 : 0)
