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
import { randomBytes } from 'node:crypto'
import { connect } from 'node:net'
import { createInterface } from 'node:readline'

const [url, token] = process.argv.slice(2)
const { hostname, port } = new URL(url)

function frame(text) {
	const payload = Buffer.from(text)
	const mask = randomBytes(4)
	const len = payload.length
	let header
	if (len < 126) header = Buffer.from([0x81, 0x80 | len])
	else if (len < 65536) header = Buffer.from([0x81, 0x80 | 126, len >> 8, len & 255])
	else {
		header = Buffer.alloc(10)
		header[0] = 0x81
		header[1] = 0x80 | 127
		header.writeBigUInt64BE(BigInt(len), 2)
	}
	for (let i = 0; i < len; i++) payload[i] ^= mask[i % 4]
	return Buffer.concat([header, mask, payload])
}

const received = []
let close = null
let buffer = Buffer.alloc(0)
let enough = Number.POSITIVE_INFINITY
let ending = false
let done = () => {}
const socket = connect(Number(port), hostname)
const upgraded = new Promise((resolve, reject) => {
	socket.on('connect', () => {
		socket.write(
			[
				'GET /ws HTTP/1.1',
				`Host: ${hostname}:${port}`,
				'Upgrade: websocket',
				'Connection: Upgrade',
				`Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
				'Sec-WebSocket-Version: 13',
				`Authorization: Bearer ${token}`,
				'',
				'',
			].join('\r\n'),
		)
	})
	let head = true
	socket.on('data', (chunk) => {
		buffer = Buffer.concat([buffer, chunk])
		if (head) {
			const end = buffer.indexOf('\r\n\r\n')
			if (end < 0) return
			const status = buffer.subarray(0, end).toString().split('\r\n')[0]
			if (!status.startsWith('HTTP/1.1 101')) return reject(new Error(status))
			buffer = buffer.subarray(end + 4)
			head = false
			resolve()
		}
		for (;;) {
			if (buffer.length < 2) return
			const opcode = buffer[0] & 0x0f
			let len = buffer[1] & 0x7f
			let offset = 2
			if (len === 126) {
				if (buffer.length < 4) return
				len = buffer.readUInt16BE(2)
				offset = 4
			} else if (len === 127) {
				if (buffer.length < 10) return
				len = Number(buffer.readBigUInt64BE(2))
				offset = 10
			}
			if (buffer.length < offset + len) return
			const payload = buffer.subarray(offset, offset + len)
			buffer = buffer.subarray(offset + len)
			if (opcode === 1) {
				const m = JSON.parse(payload.toString())
				received.push({ type: m.payload?.type ?? m.type, request_id: m.payload?.request_id, seq: m.seq })
				if (ending && received.length >= enough) return done()
			}
			if (opcode === 8) {
				close = {
					code: payload.length >= 2 ? payload.readUInt16BE(0) : 1005,
					reason: payload.subarray(2).toString(),
				}
				return done()
			}
		}
	})
	socket.on('error', (err) => (head ? reject(err) : done()))
	socket.on('close', () => done())
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
			for (const f of frames.slice(i, i + 100)) socket.write(frame(f))
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
		process.stdout.write(`${JSON.stringify({ received, close })}\n`)
		process.exit(0)
	} else if (line.trim()) socket.write(frame(line))
}
