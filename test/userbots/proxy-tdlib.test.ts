import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { createServer, type Server as NetServer, type Socket } from 'node:net'
import { type Member, removeDir, type Server, serve, signUp, tempDir } from '../plugins/userbots/support'

/**
 * Issue 28, a proxy per userbot with real TDLib, offline: a SOCKS5 server of this test on
 * 127.0.0.1 is given to a new userbot. TDLib's client is made with its network held
 * (`networkTypeNone` as its first request) and lets it go only once the proxy is enabled, so its
 * very first connection comes here: the test sees the user name and password it was given, and a
 * CONNECT to an address of Telegram's data centres, which it refuses (SOCKS5 reply 0x02, "not
 * allowed by ruleset"). Nothing leaves the machine.
 */
interface Seen {
	username: string
	password: string
	host: string
	port: number
}

/** A SOCKS5 server (RFC 1928, user name and password per RFC 1929) that refuses every CONNECT. */
function refusingSocks5(): { server: NetServer; connects: Seen[]; firstConnect: Promise<Seen> } {
	const connects: Seen[] = []
	let announce: (seen: Seen) => void = () => {}
	const firstConnect = new Promise<Seen>((resolve) => {
		announce = resolve
	})
	const server = createServer((socket: Socket) => {
		let buffer = Buffer.alloc(0)
		let stage: 'greeting' | 'auth' | 'request' | 'done' = 'greeting'
		let username = ''
		let password = ''
		socket.on('error', () => {})
		socket.on('data', (chunk: Buffer) => {
			buffer = Buffer.concat([buffer, chunk])
			if (stage === 'greeting' && buffer.length >= 2 && buffer.length >= 2 + (buffer[1] ?? 0)) {
				const methods = [...buffer.subarray(2, 2 + (buffer[1] ?? 0))]
				buffer = buffer.subarray(2 + (buffer[1] ?? 0))
				// User name and password when offered, as the proxy was configured with them.
				const method = methods.includes(2) ? 2 : 0
				socket.write(Buffer.from([5, method]))
				stage = method === 2 ? 'auth' : 'request'
			}
			if (stage === 'auth' && buffer.length >= 2) {
				const ulen = buffer[1] ?? 0
				if (buffer.length < 3 + ulen) return
				const plen = buffer[2 + ulen] ?? 0
				if (buffer.length < 3 + ulen + plen) return
				username = buffer.subarray(2, 2 + ulen).toString()
				password = buffer.subarray(3 + ulen, 3 + ulen + plen).toString()
				buffer = buffer.subarray(3 + ulen + plen)
				socket.write(Buffer.from([1, 0]))
				stage = 'request'
			}
			if (stage === 'request' && buffer.length >= 10) {
				const atyp = buffer[3]
				let host = ''
				let at = 4
				if (atyp === 1) {
					host = [...buffer.subarray(4, 8)].join('.')
					at = 8
				} else if (atyp === 4) {
					if (buffer.length < 22) return
					host = buffer.subarray(4, 20).toString('hex')
					at = 20
				} else {
					const len = buffer[4] ?? 0
					if (buffer.length < 7 + len) return
					host = buffer.subarray(5, 5 + len).toString()
					at = 5 + len
				}
				const seen = { username, password, host, port: buffer.readUInt16BE(at) }
				stage = 'done'
				connects.push(seen)
				announce(seen)
				// 0x02: connection not allowed by ruleset.
				socket.end(Buffer.from([5, 2, 0, 1, 0, 0, 0, 0, 0, 0]))
			}
		})
	})
	return { server, connects, firstConnect }
}

/** Telegram's data centres' IPv4 networks (AS62041 and its siblings). */
const TELEGRAM_V4 = [
	['149.154.160.0', 20],
	['91.108.4.0', 22],
	['91.108.8.0', 22],
	['91.108.12.0', 22],
	['91.108.16.0', 22],
	['91.108.20.0', 22],
	['91.108.56.0', 22],
	['95.161.64.0', 20],
	['185.76.151.0', 24],
] as const
const toInt = (ip: string) => ip.split('.').reduce((n, part) => n * 256 + Number(part), 0)
const isTelegram = (ip: string) =>
	/^\d+\.\d+\.\d+\.\d+$/.test(ip) &&
	TELEGRAM_V4.some(
		([net, bits]) => Math.floor(toInt(ip) / 2 ** (32 - bits)) === Math.floor(toInt(net) / 2 ** (32 - bits)),
	)

const PROXY_PASSWORD = 'socks-pass-7Rq'
let server: Server
let dataDir: string
let owner: Member
let socks: ReturnType<typeof refusingSocks5>
let port: number

beforeAll(async () => {
	socks = refusingSocks5()
	await new Promise<void>((resolve) => socks.server.listen(0, '127.0.0.1', resolve))
	port = (socks.server.address() as { port: number }).port
	dataDir = tempDir()
	server = await serve(dataDir, {
		TDLIB_BACKEND: 'tdlib',
		TELEGRAM_API_ID: '1',
		TELEGRAM_API_HASH: '0123456789abcdef0123456789abcdef',
		// The network is not held for good, so it is let go once the proxy is enabled: a fresh folder
		// has no userbot without a proxy, and the proxy is the test's own, on 127.0.0.1.
		TDLIB_OFFLINE: '0',
		COMMAND_TIMEOUT: '10000',
		// The test's proxy is on loopback, which a proxy may name only where the operator allows it.
		PROXY_ALLOWED_HOSTS: '127.0.0.1',
	})
	owner = await signUp(server.url)
})

afterAll(async () => {
	await server?.halt()
	socks?.server.close()
	removeDir(dataDir)
})

describe('a userbot behind a SOCKS5 proxy, on real TDLib', () => {
	it('connects through the proxy from its first connection, with its credentials, to Telegram', async () => {
		const created = await owner.call('POST', '/api/userbots/', {
			name: 'proxied',
			proxy: { type: 'socks5', server: '127.0.0.1', port, username: 'tester', password: PROXY_PASSWORD },
		})
		expect(created.status).toBe(201)
		const { id } = (await created.json()) as { id: number }

		const first = await socks.firstConnect
		expect(first.username).toBe('tester')
		expect(first.password).toBe(PROXY_PASSWORD)
		expect({ host: first.host, telegram: isTelegram(first.host) }).toEqual({
			host: first.host,
			telegram: true,
		})
		expect([443, 80, 5222]).toContain(first.port)

		// The health check goes through the proxy too, and shows TDLib's word for the refusal.
		const check = await owner.call('POST', `/api/userbots/${id}/proxy/check/`)
		expect(check.status).toBe(200)
		const view = (await check.json()) as { check: { ok: boolean; error?: string } }
		expect(view.check.ok).toBe(false)
		expect(view.check.error?.length ?? 0).toBeGreaterThan(0)

		const got = await owner.call('GET', `/api/userbots/${id}/`)
		const text = await got.text()
		expect(text).not.toContain(PROXY_PASSWORD)
		expect(JSON.parse(text).proxy).toMatchObject({
			type: 'socks5',
			server: '127.0.0.1',
			port,
			username: 'tester',
			has_password: true,
			check: { ok: false },
		})
		// Every connection TDLib made came here, each asking for Telegram.
		for (const seen of socks.connects) expect(isTelegram(seen.host)).toBe(true)

		expect((await owner.call('DELETE', `/api/userbots/${id}/`)).status).toBe(204)
	}, 60_000)
})
