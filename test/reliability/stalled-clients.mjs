// Many WebSocket clients in one Node process that really stop reading, for the backpressure runs
// (node test/reliability/stalled-clients.mjs URL TOKEN SPEC_JSON). Node's `socket.pause()` stops
// reading from the kernel, so the server meets TCP backpressure (test/gateway/slow-reader.mjs does
// the same for one client, driven step by step).
//
// SPEC: {sockets, userbotId, frame, count, batch?, paceMs, stallMs?, readMs}. Each socket subscribes
// to the userbot's updates, stops reading, sends `frame` `count` times (request ids `<socket>-<n>`,
// `batch` (100) frames per `paceMs`, near the rate the server takes them: past 256 in flight it refuses them), stays stalled `stallMs` (unset: until a line comes on stdin, sending on meanwhile), then reads until the server closed it, it has every reply, or
// `readMs` passed. Prints `READY` once every socket is stalled and has sent its frames, then one
// JSON line: per socket the request ids answered, how many updates came, and the close.
import { frame, openRawWebSocket } from '../raw-ws.mjs'

const [url, token, specText] = process.argv.slice(2)
const spec = JSON.parse(specText)

function open(index) {
	const state = {
		replies: [],
		sent: 0,
		errors: {},
		bytes: 0,
		updates: 0,
		close: null,
		ended: false,
		socket: null,
		done: () => {},
	}
	const { socket, upgraded } = openRawWebSocket(url, token, {
		onText(text, len) {
			const m = JSON.parse(text)
			if (m.type === 'update' || m.type === 'resync') state.updates++
			else if (typeof m.payload?.request_id === 'string' && m.payload.request_id.startsWith(`${index}-`)) {
				state.replies.push(m.payload.request_id)
				state.bytes += len
				if (m.payload.error) state.errors[m.payload.error] = (state.errors[m.payload.error] ?? 0) + 1
				if (state.replies.length >= state.sent) state.done()
			}
		},
		onClose(close) {
			state.close = close
			state.done()
		},
		onEnd() {
			state.ended = true
			state.done()
		},
	})
	state.socket = socket
	return {
		state,
		upgraded: upgraded.catch((err) => Promise.reject(new Error(`socket ${index}: ${err.message}`))),
	}
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
const send = (index, state, j) => {
	state.socket.write(frame(JSON.stringify({ ...spec.frame, request_id: `${index}-${j}` })))
	state.sent = j + 1
}
for (let i = 0; i < spec.count; i += batch) {
	for (const [index, { state }] of clients.entries()) {
		for (let j = i; j < Math.min(spec.count, i + batch); j++) send(index, state, j)
	}
	await new Promise((r) => setTimeout(r, spec.paceMs))
}
process.stdout.write('READY\n')
if (spec.stallMs === undefined) {
	// Stalled, and sending on at the same pace, until the test writes a line: the moment it has seen
	// what it waits for (a socket closed for not reading). How much a loaded server takes of a fixed
	// number of frames (it refuses those past 256 in flight) is no longer a guess: replies grow
	// until one socket's cannot wait any more.
	let told = false
	const tell = () => {
		told = true
	}
	process.stdin.once('data', tell)
	// The test went away: stop waiting for it.
	process.stdin.once('end', tell)
	while (!told) {
		for (const [index, { state }] of clients.entries()) {
			if (state.ended || state.socket.destroyed) continue
			const from = state.sent
			for (let j = from; j < from + batch; j++) send(index, state, j)
		}
		await new Promise((r) => setTimeout(r, spec.paceMs))
	}
} else await new Promise((r) => setTimeout(r, spec.stallMs))
process.stdin.destroy()
await Promise.all(
	clients.map(
		({ state }) =>
			new Promise((resolve) => {
				state.done = resolve
				if (state.close || state.ended || state.replies.length >= state.sent) resolve()
				setTimeout(resolve, spec.readMs)
				state.socket.resume()
			}),
	),
)
const result = clients.map(({ state }) => ({
	replies: state.replies,
	sent: state.sent,
	errors: state.errors,
	bytes: state.bytes,
	updates: state.updates,
	close: state.close,
	ended: state.ended,
}))
// A pipe takes a large line in several writes: exit only once it is all out.
process.stdout.write(`${JSON.stringify(result)}\n`, () => process.exit(0))
