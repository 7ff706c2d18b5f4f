// A WebSocket client that can stop reading, run under Node (node test/gateway/slow-reader.mjs URL TOKEN).
//
// Node's `socket.pause()` stops reading from the kernel for real, so the kernel's buffers fill and
// the server meets TCP backpressure (Bun's own sockets keep reading into memory when paused). The
// client obeys its stdin, one line at a time:
//   a JSON object   sends it as a text frame at once
//   BATCH <n>       the next n JSON lines are sent 100 at a time, 5 ms apart (not all into the
//                   gateway's in-flight cap at once)
//   PAUSE / RESUME  stops / starts reading
//   END <ms> [n]    reads until the server closes, n messages came, or ms passed; then prints one
//                   JSON line: every message received (its type, request_id, seq) and the close.
import { createInterface } from 'node:readline'
import { openRawWebSocket } from '../raw-ws.mjs'

const [url, token] = process.argv.slice(2)

const received = []
let close = null
let enough = Number.POSITIVE_INFINITY
let ending = false
let done = () => {}
const { socket, upgraded, send } = openRawWebSocket(url, token, {
	onText(text) {
		const m = JSON.parse(text)
		received.push({ type: m.payload?.type ?? m.type, request_id: m.payload?.request_id, seq: m.seq })
		if (ending && received.length >= enough) {
			done()
			return false
		}
	},
	onClose(c) {
		close = c
		done()
	},
	onEnd: () => done(),
})

await upgraded
process.stdout.write('READY\n')
let batch = null
for await (const line of createInterface({ input: process.stdin })) {
	if (batch) {
		batch.frames.push(line)
		if (batch.frames.length < batch.size) continue
		const frames = batch.frames
		batch = null
		for (let i = 0; i < frames.length; i += 100) {
			for (const f of frames.slice(i, i + 100)) send(f)
			await new Promise((r) => setTimeout(r, 5))
		}
		process.stdout.write('SENT\n')
		continue
	}
	const [word, a, b] = line.split(' ')
	if (word === 'BATCH') batch = { size: Number(a), frames: [] }
	else if (word === 'PAUSE') socket.pause()
	else if (word === 'RESUME') socket.resume()
	else if (word === 'END') {
		ending = true
		enough = b === undefined ? Number.POSITIVE_INFINITY : Number(b)
		await new Promise((resolve) => {
			done = resolve
			setTimeout(resolve, Number(a))
			if (received.length >= enough || close) resolve()
		})
		// A pipe takes a large line in several writes: exit only once it is all out.
		process.stdout.write(`${JSON.stringify({ received, close })}\n`, () => process.exit(0))
		break
	} else if (line.trim()) send(line)
}
