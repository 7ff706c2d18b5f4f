import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connect, type NatsConnection, nkeys } from '@nats-io/transport-node'
import { createLogger } from '../../src/common/util/logger'
import { BusConnectError, connectBus } from '../../src/runtime/bus/connection'
import { BusKey } from '../../src/runtime/bus/seal'
import type { BusConfig } from '../../src/runtime/bus/types'
import { loadConfig } from '../../src/server/config'
import { makeCerts, type TestCerts } from './certs'
import { SERVER_ENTRY } from './cluster'
import { makeOperator } from './jwt'
import { CONFIG_FILE, type NatsServer, readUntil, renderConfig, startNats, terminate } from './nats'

/**
 * NATS's own security, all of it, against real nats-servers started with the repository's
 * configuration (`docs/nats/nats-server.conf`): nobody connects anonymously, each role's user is
 * held to its subjects, and a gateway or shard authenticates in every way NATS offers (user and
 * password or a token in BUS_URL, an nkey, a creds file) and over TLS with a CA and a client
 * certificate, where `tls://` never falls back to plaintext. No credential appears in a log line
 * or an error.
 */
const dirs: string[] = []
const tempDir = () => {
	const d = mkdtempSync(join(tmpdir(), 'ubg-connect-'))
	dirs.push(d)
	return d
}
const key = BusKey.fromDataKey('k'.repeat(43))
const log = createLogger('silent')
const gatewayBus = (config: BusConfig) =>
	connectBus({
		config,
		role: 'gateway',
		id: 'gw-test',
		key,
		heartbeatMs: 1000,
		bufferSize: 16,
		bufferAgeMs: 60_000,
		log,
	})
const configOf = (env: Record<string, string>) => loadConfig({ DATA_DIR: tempDir(), ...env }).bus as BusConfig
const credentialsOf = (url: string) => {
	const u = new URL(url)
	return { servers: `127.0.0.1:${u.port}`, user: u.username, pass: u.password }
}
/** The -ERR lines the server sends a client for what its permissions refuse, as they come. */
const refusals = (nc: NatsConnection) => {
	const seen: string[] = []
	void (async () => {
		for await (const s of nc.status()) if (s.type === 'error') seen.push(String(s.error?.message))
	})()
	return seen
}
const waitFor = async (what: string, ok: () => boolean) => {
	const end = Date.now() + 10_000
	while (!ok()) {
		if (Date.now() > end) throw new Error(`${what}: not within 10 s`)
		await Bun.sleep(20)
	}
}

describe('the bus under NATS security', () => {
	let nats: NatsServer
	let seedFile: string

	beforeAll(async () => {
		const user = nkeys.createUser()
		seedFile = join(tempDir(), 'gateway.nk')
		writeFileSync(seedFile, new TextDecoder().decode(user.getSeed()), { mode: 0o600 })
		// An nkey user of the gateway role, as the file's comment says a deployment may have instead of passwords.
		nats = await startNats({ users: [`{ nkey: ${user.getPublicKey()}, permissions: $GATEWAY_PERMISSIONS }`] })
	})
	afterAll(async () => {
		await nats?.stop()
		for (const d of dirs) rmSync(d, { recursive: true, force: true })
	})

	it('refuses a client without credentials, and one with a wrong password', async () => {
		expect(readFileSync(CONFIG_FILE, 'utf8')).not.toContain('no_auth_user')
		await expect(connect({ servers: nats.plainUrl, reconnect: false })).rejects.toThrow(/authorization/i)
		const wrong = nats.url.replace(/:(p[0-9a-f]+)@/, ':p0@')
		const refused = await gatewayBus(configOf({ BUS_URL: wrong })).catch((e: unknown) => e)
		expect(refused).toBeInstanceOf(BusConnectError)
		expect((refused as Error).message).toBe(
			`cannot connect to the bus (nats://127.0.0.1:${nats.port}): the NATS server refused this process’s credentials`,
		)
	})

	it('connects with the user and password of BUS_URL, and with an nkey (BUS_NKEY)', async () => {
		const withPassword = await gatewayBus(configOf({ BUS_URL: nats.url }))
		expect(withPassword.nc.info?.server_id).toBeDefined()
		await withPassword.close()
		const withNkey = await gatewayBus(configOf({ BUS_URL: nats.plainUrl, BUS_NKEY: seedFile }))
		expect(withNkey.nc.info?.server_id).toBeDefined()
		await withNkey.close()
	})

	it('holds a shard’s user to its own subjects: no other shard’s requests, no invalidations, no other’s keys', async () => {
		const sniffer = await connect(credentialsOf(nats.urlFor('sniffer')))
		const shard = await connect({
			...credentialsOf(nats.urlFor('shard', 's1')),
			inboxPrefix: 'ubg.inbox.shard.s1',
		})
		const gateway = await connect({ ...credentialsOf(nats.url), inboxPrefix: 'ubg.inbox.gateway.t' })
		try {
			const heard: string[] = []
			sniffer.subscribe('ubg.>', {
				callback: (_e, m) => {
					heard.push(m.subject)
				},
			})
			sniffer.subscribe('$KV.>', {
				callback: (_e, m) => {
					heard.push(m.subject)
				},
			})
			await sniffer.flush()
			const refused = refusals(shard)
			const forbidden = [
				'ubg.req.s2',
				'ubg.invalidate',
				'ubg.upd.s2.1',
				'$KV.ubg-members.shard.s2',
				'$KV.ubg-leases.storage',
			]
			for (const subject of forbidden) shard.publish(subject, 'x')
			shard.subscribe('ubg.req.s2')
			await waitFor('a refusal for each', () => refused.length >= forbidden.length + 1)
			for (const subject of forbidden)
				expect(refused.some((r) => r.includes(`Publish to "${subject}"`))).toBe(true)
			expect(refused.some((r) => r.includes('Subscription to "ubg.req.s2"'))).toBe(true)
			// Only gateways ask shards and tell other gateways; no gateway publishes a shard's events.
			const gatewayRefused = refusals(gateway)
			gateway.publish('ubg.upd.s1.1', 'x')
			gateway.publish('$KV.ubg-members.shard.s1', 'x')
			await waitFor('the gateway refused', () => gatewayRefused.length >= 2)
			// Whatever the server had let through reached the sniffer before its answer to this.
			await sniffer.flush()
			expect(heard).toEqual([])
		} finally {
			await Promise.all([sniffer.close(), shard.close(), gateway.close()])
		}
	})

	it('never writes the password of BUS_URL: not in the log lines of a process, not in its startup error', async () => {
		const dataDir = tempDir()
		const run = async (url: string) => {
			const proc = Bun.spawn([process.execPath, '--no-env-file', SERVER_ENTRY], {
				env: {
					PATH: process.env.PATH ?? '',
					DATA_DIR: dataDir,
					ROLE: 'gateway',
					BUS_URL: url,
					PORT: '0',
					LOG_LEVEL: 'debug',
					TDLIB_BACKEND: 'emulator',
				},
				stdout: 'pipe',
				stderr: 'pipe',
			})
			return proc
		}
		const password = new URL(nats.url).password
		const good = await run(nats.url)
		const lines: string[] = []
		try {
			await readUntil(good.stderr, /"msg":"listening"/, 20_000, lines)
		} finally {
			await terminate(good)
		}
		expect(lines.some((l) => l.includes('"bus connected"'))).toBe(true)
		expect(lines.join('\n')).not.toContain(password)
		const wrong = `nats://gateway:p-not-${password}@127.0.0.1:${nats.port}`
		const bad = await run(wrong)
		expect(await bad.exited).toBe(2)
		const text = `${await new Response(bad.stdout).text()}${await new Response(bad.stderr).text()}`
		expect(text.trim().split('\n').at(-1)).toBe(
			`startup error: cannot connect to the bus (nats://127.0.0.1:${nats.port}): the NATS server refused this process’s credentials`,
		)
		expect(text).not.toContain(password)
	}, 40_000)

	it('connects with a token in BUS_URL', async () => {
		const dir = tempDir()
		const conf = join(dir, 'token.conf')
		writeFileSync(
			conf,
			`authorization { token: "t0ken-of-the-test" }\njetstream { store_dir: ${JSON.stringify(join(dir, 'js'))} }\n`,
		)
		const proc = Bun.spawn(['/usr/sbin/nats-server', '-c', conf, '-p', '-1', '-a', '127.0.0.1'], {
			stdout: 'ignore',
			stderr: 'pipe',
		})
		try {
			const port = await readUntil(
				proc.stderr,
				/Listening for client connections on 127\.0\.0\.1:(\d+)/,
				10_000,
			)
			await expect(connect({ servers: `127.0.0.1:${port}`, reconnect: false })).rejects.toThrow(
				/authorization/i,
			)
			const bus = await gatewayBus(configOf({ BUS_URL: `nats://t0ken-of-the-test@127.0.0.1:${port}` }))
			expect(bus.nc.info?.auth_required).toBe(true)
			await bus.close()
		} finally {
			await terminate(proc)
		}
	})

	it('connects with a creds file (BUS_CREDS) to a server in operator mode, with the gateway role’s permissions as JWT claims', async () => {
		const dir = tempDir()
		const operator = makeOperator()
		const conf = join(dir, 'operator.conf')
		writeFileSync(conf, operator.config(join(dir, 'js')))
		const text = renderConfig([])
		const block = /GATEWAY_PERMISSIONS = {([\s\S]*?)\n}\n/.exec(text)?.[1] ?? ''
		const list = (dir: string) =>
			[
				...(new RegExp(`${dir}:\\s*{\\s*allow:\\s*\\[([^\\]]*)\\]`).exec(block)?.[1] ?? '').matchAll(
					/"([^"]+)"/g,
				),
			].map((m) => m[1] as string)
		const creds = join(dir, 'gateway.creds')
		writeFileSync(creds, operator.creds({ publish: list('publish'), subscribe: list('subscribe') }), {
			mode: 0o600,
		})
		const proc = Bun.spawn(['/usr/sbin/nats-server', '-c', conf, '-p', '-1', '-a', '127.0.0.1'], {
			stdout: 'ignore',
			stderr: 'pipe',
		})
		try {
			const port = await readUntil(
				proc.stderr,
				/Listening for client connections on 127\.0\.0\.1:(\d+)/,
				10_000,
			)
			await expect(connect({ servers: `127.0.0.1:${port}`, reconnect: false })).rejects.toThrow(
				/authorization/i,
			)
			const bus = await gatewayBus(configOf({ BUS_URL: `nats://127.0.0.1:${port}`, BUS_CREDS: creds }))
			// Connected, and the stream and buckets made under the JWT's permissions.
			expect((await bus.jsm.streams.info('UBG_EVENTS')).config.name).toBe('UBG_EVENTS')
			await bus.close()
		} finally {
			await terminate(proc)
		}
	})
})

describe('the bus over TLS', () => {
	let tlsNats: NatsServer
	let plain: NatsServer
	let certs: TestCerts

	beforeAll(async () => {
		certs = makeCerts(tempDir())
		tlsNats = await startNats({ tls: { cert: certs.serverCert, key: certs.serverKey, ca: certs.ca } })
		plain = await startNats()
	})
	afterAll(async () => {
		await Promise.all([tlsNats?.stop(), plain?.stop()])
	})

	it('connects with the CA and a client certificate (BUS_TLS_CA, BUS_TLS_CERT, BUS_TLS_KEY)', async () => {
		const bus = await gatewayBus(
			configOf({
				BUS_URL: tlsNats.url,
				BUS_TLS_CA: certs.ca,
				BUS_TLS_CERT: certs.clientCert,
				BUS_TLS_KEY: certs.clientKey,
			}),
		)
		expect(bus.nc.info?.tls_required).toBe(true)
		await bus.close()
	})

	it('is refused without a client certificate, and does not trust a server its CA did not sign', async () => {
		const noCert = await gatewayBus(configOf({ BUS_URL: tlsNats.url, BUS_TLS_CA: certs.ca })).catch(
			(e: unknown) => e,
		)
		expect(noCert).toBeInstanceOf(BusConnectError)
		const otherCa = makeCerts(tempDir())
		const untrusted = await gatewayBus(
			configOf({
				BUS_URL: tlsNats.url,
				BUS_TLS_CA: otherCa.ca,
				BUS_TLS_CERT: certs.clientCert,
				BUS_TLS_KEY: certs.clientKey,
			}),
		).catch((e: unknown) => e)
		expect(untrusted).toBeInstanceOf(BusConnectError)
		expect((untrusted as Error).message).toContain('the TLS handshake with the NATS server failed')
		// The server closes a connection without a certificate after the handshake: the client waits out its connect timeout.
	}, 40_000)

	it('fails hard on tls:// when the server offers no TLS: never plaintext', async () => {
		const url = plain.url.replace(/^nats:/, 'tls:')
		const refused = await gatewayBus(configOf({ BUS_URL: url })).catch((e: unknown) => e)
		expect(refused).toBeInstanceOf(BusConnectError)
		expect((refused as Error).message).toBe(
			`cannot connect to the bus (tls://127.0.0.1:${plain.port}): the NATS server does not offer TLS, which tls:// and BUS_TLS_* require`,
		)
	})
})

describe('the configuration docs/shards.md shows', () => {
	it('is the very file the tests start nats-server with', () => {
		const readme = readFileSync(join(import.meta.dir, '..', '..', 'docs', 'shards.md'), 'utf8')
		expect(readme).toContain(`\`\`\`\n${readFileSync(CONFIG_FILE, 'utf8')}\`\`\``)
	})
})
