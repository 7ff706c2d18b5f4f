// A WebSocket client on a bare TCP socket, for the clients that must really stop reading: Node's
// `socket.pause()` stops reading from the kernel, so the server meets TCP backpressure, which no
// WebSocket class lets a client do. Used by test/gateway/slow-reader.mjs (one client, driven step by
// step) and test/reliability/stalled-clients.mjs (many in one process).
import { randomBytes } from 'node:crypto'
import { connect } from 'node:net'

/** One masked text frame (clients must mask). */
export function frame(text) {
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

/**
 * Opens `/ws` with a bearer token. `onText(text, bytes)` gets each text message (returning false stops
 * reading the rest of that chunk), `onClose({code, reason})` the server's close frame, `onEnd()` the
 * socket's end or an error after the upgrade. `upgraded` resolves at the 101 and rejects otherwise.
 */
export function openRawWebSocket(url, token, { onText, onClose, onEnd }) {
	const { hostname, port } = new URL(url)
	const socket = connect(Number(port), hostname)
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
				if (opcode === 1 && onText(payload.toString(), len) === false) return
				if (opcode === 8) {
					onClose({
						code: payload.length >= 2 ? payload.readUInt16BE(0) : 1005,
						reason: payload.subarray(2).toString(),
					})
					return
				}
			}
		})
		socket.on('error', (err) => (head ? reject(err) : onEnd()))
		socket.on('close', () => onEnd())
	})
	return { socket, upgraded, send: (text) => socket.write(frame(text)) }
}
