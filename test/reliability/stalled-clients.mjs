// Many WebSocket clients in one Node process that really stop reading, for the backpressure runs
// (node test/reliability/stalled-clients.mjs URL TOKEN SPEC_JSON). Node's `socket.pause()` stops
// reading from the kernel, so the server meets TCP backpressure (test/gateway/slow-reader.mjs does
// the same for one client, driven step by step).
//
// SPEC: {sockets, userbotId, frame, count, batch?, paceMs, stallMs, readMs}. Each socket subscribes
// to the userbot's updates, stops reading, sends `frame` `count` times (request ids `<socket>-<n>`,
// `batch` (100) frames per `paceMs`, near the rate the server takes them: past 256 in flight it refuses them), stays stalled `stallMs`, then reads until the server closed it, it has every reply, or
// `readMs` passed. Prints `READY` once every socket is stalled and has sent its frames, then one
// JSON line: per socket the request ids answered, how many updates came, and the close.
import { randomBytes } from 'node:crypto'
import { connect } from 'node:net'

const [url, token, specText] = process.argv.slice(2)
const spec = JSON.parse(specText)
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

function open(index) {
	const state = {
		replies: [],
		errors: {},
		bytes: 0,
		updates: 0,
		close: null,
		ended: false,
		socket: null,
		done: () => {},
	}
	const socket = connect(Number(port), hostname)
	state.socket = socket
	let buffer = Buffer.alloc(0)
	let head = true
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
		socket.on('data', (chunk) => {
			buffer = Buffer.concat([buffer, chunk])
			if (head) {
				const end = buffer.indexOf('\r\n\r\n')
				if (end < 0) return
				const status = buffer.subarray(0, end).toString().split('\r\n')[0]
				if (!status.startsWith('HTTP/1.1 101')) return reject(new Error(`socket ${index}: ${status}`))
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
					if (m.type === 'update' || m.type === 'resync') state.updates++
					else if (
						typeof m.payload?.request_id === 'string' &&
						m.payload.request_id.startsWith(`${index}-`)
					) {
						state.replies.push(m.payload.request_id)
						state.bytes += len
						if (m.payload.error) state.errors[m.payload.error] = (state.errors[m.payload.error] ?? 0) + 1
						if (state.replies.length >= spec.count) state.done()
					}
				}
				if (opcode === 8) {
					state.close = {
						code: payload.length >= 2 ? payload.readUInt16BE(0) : 1005,
						reason: payload.subarray(2).toString(),
					}
					state.done()
					return
				}
			}
		})
		socket.on('error', (err) => (head ? reject(err) : state.done()))
		socket.on('close', () => {
			state.ended = true
			state.done()
		})
	})
	return { state, upgraded }
}

const clients = Array.from({ length: spec.sockets }, (_, i) => open(i))
await Promise.all(clients.map((c) => c.upgraded))
for (const { state } of clients) {
	state.socket.write(
		frame(JSON.stringify({ action: 'subscribe', userbot_id: spec.userbotId, request_id: 'sub' })),
	)
}
await new Promise((r) => setTimeout(r, 200))
for (const { state } of clients) state.socket.pause()
const batch = spec.batch ?? 100
for (let i = 0; i < spec.count; i += batch) {
	for (const [index, { state }] of clients.entries()) {
		for (let j = i; j < Math.min(spec.count, i + batch); j++) {
			state.socket.write(frame(JSON.stringify({ ...spec.frame, request_id: `${index}-${j}` })))
		}
	}
	await new Promise((r) => setTimeout(r, spec.paceMs))
}
process.stdout.write('READY\n')
await new Promise((r) => setTimeout(r, spec.stallMs))
await Promise.all(
	clients.map(
		({ state }) =>
			new Promise((resolve) => {
				state.done = resolve
				if (state.close || state.ended || state.replies.length >= spec.count) resolve()
				setTimeout(resolve, spec.readMs)
				state.socket.resume()
			}),
	),
)
const result = clients.map(({ state }) => ({
	replies: state.replies,
	errors: state.errors,
	bytes: state.bytes,
	updates: state.updates,
	close: state.close,
	ended: state.ended,
}))
// A pipe takes a large line in several writes: exit only once it is all out.
process.stdout.write(`${JSON.stringify(result)}\n`, () => process.exit(0))
