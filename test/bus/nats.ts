import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Subprocess } from 'bun'
import type { BusConfig } from '../../src/runtime/bus/types'

/**
 * A real `nats-server` for the tests (JetStream on, 127.0.0.1, a port the server picks), started with the
 * repository's own configuration, `docs/nats/nats-server.conf`: the one docs/shards.md#securing-the-bus
 * shows. Never anonymous: every gateway and shard connects with its role's user and permissions (a user per
 * shard, named by its SHARD_ID). The tests add only what a deployment would not have: a
 * `sniffer` with every right (to look at what crosses the bus), and users for `ROLE=all` with both
 * roles' permissions.
 *
 * nats-server is installed by `.ci/run` (Debian's `nats-server`); without it these tests fail,
 * they are not skipped.
 */
const NATS = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].find(existsSync)
export const CONFIG_FILE = join(import.meta.dir, '..', '..', 'docs', 'nats', 'nats-server.conf')

/** Shard ids that get a user: every one the bus tests use. */
export const TEST_SHARDS = [
	's1',
	's2',
	's3',
	's4',
	's5',
	's6',
	's7',
	's8',
	'solo',
	'lost',
	'b0',
	'b1',
	'b2',
	'b3',
]

export interface TlsFiles {
	cert: string
	key: string
	ca: string
}

export interface NatsOptions {
	/** Serve TLS with these files (and require client certificates signed by `ca`). */
	tls?: TlsFiles
	/** Extra lines in the account's users list (nkey users). */
	users?: string[]
	/** Where JetStream keeps its files (the file's own path is for a real machine). */
	storeDir?: string
}

export interface NatsServer {
	/** `nats://` with the gateway's user: what a gateway's BUS_URL is. */
	url: string
	/** `nats://127.0.0.1:port`, without credentials. */
	plainUrl: string
	port: number
	/** BUS_URL for a role: `gateway`, `shard` (with its id), `all` (with its shard id), `sniffer`. */
	urlFor(role: 'gateway' | 'shard' | 'all' | 'sniffer', id?: string): string
	/** The server's log lines so far. */
	lines: string[]
	/** SIGKILL; `start` brings it back on the same port and store. */
	kill(): Promise<void>
	start(): Promise<void>
	stop(): Promise<void>
}

/** The `allow` lists of a permissions block, by direction. */
function allowLists(block: string): { publish: string[]; subscribe: string[] } {
	const list = (dir: string) => {
		const m = new RegExp(`${dir}:\\s*{\\s*allow:\\s*\\[([^\\]]*)\\]`).exec(block)
		return m ? [...(m[1] as string).matchAll(/"([^"]+)"/g)].map((x) => x[1] as string) : []
	}
	return { publish: list('publish'), subscribe: list('subscribe') }
}

/** The configuration file, with a shard block per id, the test's users, and TLS as asked. */
export function renderConfig(shards: readonly string[], opts: NatsOptions = {}): string {
	const text = readFileSync(CONFIG_FILE, 'utf8')
	const block = /#shard-begin\n([\s\S]*?)#shard-end\n/.exec(text)?.[1]
	if (!block) throw new Error(`${CONFIG_FILE} has no #shard-begin/#shard-end block`)
	const gateway = allowLists(/GATEWAY_PERMISSIONS = {([\s\S]*?)\n}\n/.exec(text)?.[1] ?? '')
	const q = (xs: string[]) => xs.map((x) => JSON.stringify(x)).join(', ')
	const extra = [
		'{ user: sniffer, password: $UBG_SNIFFER_PASSWORD }',
		...shards.map((id) => {
			const shard = allowLists(block.replaceAll('SHARD_ID', id))
			return `{ user: all-${id}, password: $UBG_ALL_${id}_PASSWORD, permissions: { publish: { allow: [${q([...gateway.publish, ...shard.publish])}] }, subscribe: { allow: [${q([...gateway.subscribe, ...shard.subscribe])}] }, allow_responses: true } }`
		}),
		...(opts.users ?? []),
	]
	let out = text.replace(
		/#shard-begin\n[\s\S]*?#shard-end\n/,
		`${shards.map((id) => block.replaceAll('SHARD_ID', id)).join('\n')}\n${extra.join('\n')}\n`,
	)
	if (opts.storeDir) out = out.replace(/store_dir: "[^"]*"/, `store_dir: ${JSON.stringify(opts.storeDir)}`)
	const tls = opts.tls
	out = out.replace(
		/#tls-begin\n[\s\S]*?#tls-end\n/,
		tls
			? `tls {\n  cert_file: ${JSON.stringify(tls.cert)}\n  key_file: ${JSON.stringify(tls.key)}\n  ca_file: ${JSON.stringify(tls.ca)}\n  verify: true\n}\n`
			: '',
	)
	return out
}

export async function startNats(opts: NatsOptions = {}): Promise<NatsServer> {
	if (!NATS)
		throw new Error('nats-server is not installed (apt-get install -y nats-server): the bus tests need it')
	const dir = mkdtempSync(join(tmpdir(), 'ubg-nats-'))
	const conf = join(dir, 'nats-server.conf')
	writeFileSync(conf, renderConfig(TEST_SHARDS, { ...opts, storeDir: join(dir, 'store') }))
	// nats-server parses a variable's value as a config value: a letter first keeps it a string.
	const password = () => `p${Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('hex')}`
	const users = new Map<string, string>([
		['gateway', password()],
		['sniffer', password()],
		...TEST_SHARDS.flatMap((id) => [
			[`shard-${id}`, password()] as [string, string],
			[`all-${id}`, password()] as [string, string],
		]),
	])
	const env: Record<string, string> = {
		UBG_GATEWAY_PASSWORD: users.get('gateway') as string,
		UBG_SNIFFER_PASSWORD: users.get('sniffer') as string,
	}
	for (const id of TEST_SHARDS) {
		env[`UBG_SHARD_${id}_PASSWORD`] = users.get(`shard-${id}`) as string
		env[`UBG_ALL_${id}_PASSWORD`] = users.get(`all-${id}`) as string
	}
	const lines: string[] = []
	let proc: Subprocess<'ignore', 'ignore', 'pipe'> | undefined
	let port = -1
	const scheme = opts.tls ? 'tls' : 'nats'
	const launch = async () => {
		proc = Bun.spawn([NATS, '-c', conf, '-p', String(port), '-a', '127.0.0.1'], {
			env,
			stdout: 'ignore',
			stderr: 'pipe',
		})
		const found = await readUntil(
			proc.stderr,
			/Listening for client connections on 127\.0\.0\.1:(\d+)/,
			10_000,
			lines,
		).catch((err: unknown) => {
			throw new Error(`nats-server did not start: ${lines.slice(-3).join(' | ')}`, { cause: err })
		})
		port = Number(found)
	}
	await launch()
	const urlFor = (role: 'gateway' | 'shard' | 'all' | 'sniffer', id?: string) => {
		const user = role === 'shard' || role === 'all' ? `${role}-${id}` : role
		const pass = users.get(user)
		if (!pass) throw new Error(`no test user ${user}`)
		return `${scheme}://${user}:${pass}@127.0.0.1:${port}`
	}
	const server: NatsServer = {
		get url() {
			return urlFor('gateway')
		},
		get plainUrl() {
			return `${scheme}://127.0.0.1:${port}`
		},
		get port() {
			return port
		},
		urlFor,
		lines,
		async kill() {
			if (!proc) return
			proc.kill('SIGKILL')
			await proc.exited
		},
		start: launch,
		async stop() {
			if (proc) await terminate(proc)
			rmSync(dir, { recursive: true, force: true })
		},
	}
	registered.set(server.url, server)
	return server
}

/** Test nats-servers by their gateway URL: a shard started with that env gets its own user. */
const registered = new Map<string, NatsServer>()

/** The BUS_URL of a shard with this env: its own user on a test server, else the env's. */
export function shardBusUrl(env: Record<string, string>, id: string): string | undefined {
	const server = env.BUS_URL === undefined ? undefined : registered.get(env.BUS_URL)
	return server ? server.urlFor('shard', id) : env.BUS_URL
}

/**
 * SIGTERM, then SIGKILL if the process is still there after `graceMs`: a test never leaves a process
 * behind, and never waits without end for one that does not stop.
 */
export async function terminate(proc: Subprocess, graceMs = 10_000): Promise<void> {
	if (proc.exitCode !== null || proc.signalCode) return
	proc.kill('SIGTERM')
	const stopped = await Promise.race([proc.exited.then(() => true), Bun.sleep(graceMs).then(() => false)])
	if (!stopped) {
		proc.kill('SIGKILL')
		await proc.exited
	}
}

/** Reads a stream until `pattern` matches a line; resolves with its first group. Keeps reading after. */
export async function readUntil(
	stream: ReadableStream<Uint8Array>,
	pattern: RegExp,
	ms: number,
	lines?: string[],
) {
	const reader = stream.getReader()
	const decoder = new TextDecoder()
	let rest = ''
	let found: string | undefined
	const timer = setTimeout(() => void reader.cancel().catch(() => undefined), ms)
	while (found === undefined) {
		const { value, done } = await reader.read()
		if (done) break
		const parts = (rest + decoder.decode(value, { stream: true })).split('\n')
		rest = parts.pop() ?? ''
		for (const line of parts) {
			lines?.push(line)
			const m = pattern.exec(line)
			if (m && found === undefined) found = m[1] ?? m[0]
		}
	}
	clearTimeout(timer)
	if (found === undefined) throw new Error(`not seen within ${ms} ms: ${pattern}`)
	// Keep draining, so that the process never blocks on a full pipe.
	void (async () => {
		for (;;) {
			const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }))
			if (done) return
			const parts = (rest + decoder.decode(value, { stream: true })).split('\n')
			rest = parts.pop() ?? ''
			lines?.push(...parts)
		}
	})()
	return found
}

/** The bus settings a BUS_URL of a test user gives (as `loadConfig` reads it). */
export function busConfigOf(url: string, heartbeatMs = 1000): BusConfig {
	const u = new URL(url)
	return {
		servers: [`${u.protocol}//${u.host}`],
		heartbeatMs,
		auth: { kind: 'password', user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) },
	}
}
