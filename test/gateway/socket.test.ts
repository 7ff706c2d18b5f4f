import { afterEach, describe, expect, it } from 'bun:test'
import {
	CLOSE_GOING_AWAY,
	CLOSE_POLICY,
	REASON_EXPIRED,
	REASON_REVOKED,
	REASON_SHUTTING_DOWN,
} from '../../src/common/wire/close'
import { createDeadlineQueue } from '../../src/runtime/supervisor/deadlines'
import type { Credential, Principal } from '../../src/server/auth/types'
import { Running } from '../../src/server/gateway/running'
import { GatewaySocket, type SocketPorts } from '../../src/server/gateway/socket'

/**
 * The socket's state machine, without a server: what it writes and how it closes, by state. The
 * transport is a list of frames written and of closes; the auth core's check is what each test says.
 */
const principal = { userId: 7, companyId: 3 } as Principal
const credential = (ms = 3_600_000): Credential => ({
	principal,
	family: 'f1',
	sessionHash: null,
	sessionId: null,
	expiresAt: Date.now() + ms,
})

type Check = ReturnType<SocketPorts['check']>

function harness(check: () => Check = () => principal, cred = credential()) {
	const written: string[] = []
	const closes: Array<[number, string]> = []
	const failures: string[] = []
	const deadlines = createDeadlineQueue()
	const socket = new GatewaySocket(cred, principal, {
		write: (t) => written.push(t),
		flush: () => {},
		close: (code, reason) => closes.push([code, reason]),
		check: () => check(),
		checkFailed: (_err, what) => failures.push(what),
	})
	const run = (action: string) => {
		const r = new Running(performance.now() + 60_000, action, 1, action, socket, deadlines, 10)
		deadlines.add(r)
		return r
	}
	made.push(socket, deadlines)
	return { socket, written, closes, failures, run }
}
/** Expiry timers and deadline timers stop with each test. */
const made: Array<GatewaySocket | ReturnType<typeof createDeadlineQueue>> = []
afterEach(() => {
	for (const m of made.splice(0)) {
		if (m instanceof GatewaySocket) m.closed()
		else m.clear()
	}
})

/** A check the test answers itself, later: the database case. */
function pending() {
	let answer: (p: Principal | null) => void = () => {}
	const promise = new Promise<Principal | null>((r) => {
		answer = r
	})
	return { promise, answer }
}

describe('GatewaySocket', () => {
	it('sends while open; after end drops a send and says so', () => {
		const { socket, written, closes } = harness()
		expect(socket.state).toBe('open')
		expect(socket.send('a')).toBe(true)
		expect(socket.end(CLOSE_GOING_AWAY, REASON_SHUTTING_DOWN)).toBe(true)
		expect(socket.state).toBe('ended')
		expect(socket.send('b')).toBe(false)
		expect(written).toEqual(['a'])
		expect(closes).toEqual([[CLOSE_GOING_AWAY, REASON_SHUTTING_DOWN]])
	})

	it('ends once: a second end, a revocation or an expiry after it changes nothing', () => {
		const { socket, closes } = harness()
		expect(socket.end(CLOSE_POLICY, REASON_REVOKED)).toBe(true)
		expect(socket.end(CLOSE_GOING_AWAY, REASON_SHUTTING_DOWN)).toBe(false)
		socket.revoke()
		socket.expire()
		socket.goAway()
		expect(closes).toEqual([[CLOSE_POLICY, REASON_REVOKED]])
		expect(socket.state).toBe('ended')
	})

	it('expiring: refuses admission and renewal, lets what runs finish, then closes 1008 expired', () => {
		const { socket, written, closes, run } = harness()
		const slow = run('slow')
		socket.expire()
		expect(socket.state).toBe('expiring')
		expect(socket.refusing).toBe(REASON_EXPIRED)
		expect(socket.admit()).toBe(false)
		expect(socket.renew(credential(), principal)).toBe(false)
		expect(closes).toEqual([])
		slow.finish('{"reply":"slow"}')
		expect(written).toEqual(['{"reply":"slow"}'])
		expect(closes).toEqual([[CLOSE_POLICY, REASON_EXPIRED]])
		expect(socket.state).toBe('ended')
	})

	it('expires with nothing running: closes at once', () => {
		const { socket, closes } = harness()
		socket.expire()
		expect(closes).toEqual([[CLOSE_POLICY, REASON_EXPIRED]])
	})

	it('revoked: answers every running command with the reason, then closes 1008 revoked', () => {
		const { socket, written, closes, run } = harness()
		run('one')
		run('two')
		socket.revoke()
		expect(written.map((t) => JSON.parse(t).payload)).toEqual([
			{ userbot_id: 1, type: 'one_error', error: REASON_REVOKED, request_id: 'one' },
			{ userbot_id: 1, type: 'two_error', error: REASON_REVOKED, request_id: 'two' },
		])
		expect(closes).toEqual([[CLOSE_POLICY, REASON_REVOKED]])
		expect(socket.runningCount).toBe(0)
	})

	it('a check that finds the credential gone revokes (or expires, past its expiry)', () => {
		const gone = harness(() => null)
		expect(gone.socket.admit()).toBe(false)
		expect(gone.closes).toEqual([[CLOSE_POLICY, REASON_REVOKED]])
		const past = harness(() => null, credential(-1))
		expect(past.socket.admit()).toBe(false)
		expect(past.closes).toEqual([[CLOSE_POLICY, REASON_EXPIRED]])
	})

	it('leaving: closes 1001 once the last running command is answered', () => {
		const { socket, written, closes, run } = harness()
		const a = run('a')
		socket.goAway()
		expect(socket.leaving).toBe(true)
		expect(closes).toEqual([])
		a.finish('done')
		expect(written).toEqual(['done'])
		expect(closes).toEqual([[CLOSE_GOING_AWAY, REASON_SHUTTING_DOWN]])
	})

	it('holds pushes while a check waits, and releases them in order when it admits', async () => {
		const check = pending()
		const { socket, written } = harness(() => check.promise)
		socket.push('p1')
		socket.push('p2')
		socket.push('p3')
		expect(written).toEqual([])
		expect(socket.heldCount).toBe(3)
		check.answer(principal)
		await check.promise
		await Promise.resolve()
		expect(written).toEqual(['p1', 'p2', 'p3'])
		expect(socket.heldCount).toBe(0)
	})

	it('renewed while pushes are held: they go out in order once the check answers', async () => {
		const check = pending()
		const { socket, written } = harness(() => check.promise)
		socket.push('p1')
		socket.push('p2')
		expect(socket.renew(credential(), principal)).toBe(true)
		// The answer is about the credential the socket no longer uses: the renewed one stands.
		check.answer(null)
		await check.promise
		await Promise.resolve()
		expect(written).toEqual(['p1', 'p2'])
		expect(socket.state).toBe('open')
	})

	it('drops held pushes when the check says the credential is gone', async () => {
		const check = pending()
		const { socket, written, closes } = harness(() => check.promise)
		socket.push('p1')
		check.answer(null)
		await check.promise
		await Promise.resolve()
		expect(written).toEqual([])
		expect(closes).toEqual([[CLOSE_POLICY, REASON_REVOKED]])
	})

	it('closed by the client: running commands are dropped without a reply, the signal aborts', () => {
		const { socket, written, run } = harness()
		const r = run('a')
		socket.closed()
		expect(r.done).toBe(true)
		expect(written).toEqual([])
		expect(socket.signal.aborted).toBe(true)
		expect(socket.state).toBe('ended')
	})

	it('one reply per command: a second answer of the same command is not sent', () => {
		const { socket, written, run } = harness()
		const r = run('a')
		r.finish('first')
		r.fail('second')
		socket.answered(r, 10, 'third')
		expect(written).toEqual(['first'])
	})
})
