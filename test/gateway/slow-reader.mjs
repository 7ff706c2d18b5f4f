// A WebSocket client that stops reading, run under Node (node test/gateway/slow-reader.mjs).
//
// Node's `socket.pause()` stops reading from the kernel for real, so the kernel's buffers fill and
// the server meets TCP backpressure (Bun's own sockets keep reading into memory when paused). The
// client sends the frames given on stdin (one JSON command per line) in batches of 100, 5 ms apart
// (so that they do not all meet the gateway's in-flight cap at once), reads nothing for `pauseMs`,
// then reads again until the server closes, `enough` replies came or `readMs` passes, and prints one JSON line: the
// request ids of the replies in the order they came, and the close code and reason.
import { randomBytes } from 'node:crypto'
import { connect } from 'node:net'

const [url, token, pauseMs, readMs, enough] = process.argv.slice(2)
const frames = (await new Response(process.stdin).text()).split('\n').filter(Boolean)
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

const ids = []
let close = null
let buffer = Buffer.alloc(0)
let upgraded = false
const socket = connect(Number(port), hostname)
const done = () => {
	process.stdout.write(`${JSON.stringify({ ids, close })}\n`)
	process.exit(0)
}
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
socket.on('data', (chunk) => {
	buffer = Buffer.concat([buffer, chunk])
	if (!upgraded) {
		const end = buffer.indexOf('\r\n\r\n')
		if (end < 0) return
		if (!buffer.subarray(0, end).toString().startsWith('HTTP/1.1 101')) {
			close = { code: 0, reason: buffer.subarray(0, end).toString().split('\r\n')[0] }
			return done()
		}
		buffer = buffer.subarray(end + 4)
		upgraded = true
		socket.pause()
		const sendBatch = (from) => {
			for (const f of frames.slice(from, from + 100)) socket.write(frame(f))
			if (from + 100 < frames.length) setTimeout(() => sendBatch(from + 100), 5)
		}
		sendBatch(0)
		setTimeout(() => socket.resume(), Number(pauseMs))
		setTimeout(done, Number(pauseMs) + Number(readMs))
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
			ids.push(JSON.parse(payload.toString()).payload?.request_id ?? null)
			if (ids.length >= Number(enough)) return done()
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
socket.on('close', done)
socket.on('error', done)
