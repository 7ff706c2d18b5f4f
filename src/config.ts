import {
	accessSync,
	constants,
	existsSync,
	linkSync,
	mkdirSync,
	readFileSync,
	renameSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs'
import { availableParallelism } from 'node:os'
import { join, resolve } from 'node:path'
import * as v from 'valibot'
import { ConfigError } from './config-error'
import { DEFAULT_FLOOD_LIMITS, type FloodLimits, parseFloodLimits } from './flood/limits'
import { isAddressOrCidr } from './http/client-address'
import { isPackageSpecifier, isPathSpecifier } from './plugin-specifier'
import { isTdUpdate } from './telegram/schema/index'

/**
 * Configuration comes from the environment (and `.env`, which Bun loads itself), checked once at
 * start. A bad value stops the server with one line naming the variable (docs/configuration.md).
 */

const int = (min: number, max: number) =>
	v.pipe(
		v.string(),
		v.regex(/^\d+$/, 'must be a whole number'),
		v.transform(Number),
		v.number(),
		v.minValue(min, `must be at least ${min}`),
		v.maxValue(max, `must be at most ${max}`),
	)

const bool = v.pipe(
	v.picklist(['1', '0', 'true', 'false', 'yes', 'no'], 'must be true or false'),
	v.transform((s) => s === '1' || s === 'true' || s === 'yes'),
)

const url = v.pipe(v.string(), v.url('must be a URL'))

const list = v.pipe(
	v.string(),
	v.transform((s) =>
		s
			.split(',')
			.map((x) => x.trim())
			.filter(Boolean),
	),
)

/**
 * What happens to a userbot's messages and chats, as a client of the service wants to hear it: new
 * messages (members joining and leaving arrive as service messages: TDLib's `updateChatMember` is
 * for bots only), sent (the final id) and failed ones, edits, deletions, what was read, and log-in
 * states. Chat actions ("typing...") and the many other kinds TDLib sends are not kept, but a client
 * may subscribe to any of them.
 */
export const DEFAULT_UPDATE_KINDS = [
	'updateNewMessage',
	'updateMessageSendSucceeded',
	'updateMessageSendFailed',
	'updateMessageContent',
	'updateMessageEdited',
	'updateDeleteMessages',
	'updateChatReadInbox',
	'updateChatReadOutbox',
	'updateAuthorizationState',
] as const

const EnvSchema = v.object({
	PORT: v.optional(int(0, 65535), '8000'),
	HOST: v.optional(v.pipe(v.string(), v.minLength(1, 'must not be empty')), '127.0.0.1'),
	DATA_DIR: v.optional(v.pipe(v.string(), v.minLength(1, 'must not be empty')), './data'),
	DATABASE_URL: v.optional(
		v.pipe(
			v.string(),
			v.regex(
				/^(file:|libsql:\/\/|https?:\/\/|wss?:\/\/|:memory:$)/,
				'must start with file:, libsql://, http(s):// or ws(s)://',
			),
		),
	),
	DATABASE_AUTH_TOKEN: v.optional(v.string()),
	PLUGINS: v.optional(list),
	PUBLIC_URL: v.optional(url),
	ALLOWED_ORIGINS: v.optional(list, ''),
	COOKIE_SECURE: v.optional(bool),
	JWT_SECRET: v.optional(v.pipe(v.string(), v.minLength(32, 'must be at least 32 characters'))),
	SESSION_SECRET: v.optional(v.pipe(v.string(), v.minLength(32, 'must be at least 32 characters'))),
	ACCESS_TOKEN_LIFETIME: v.optional(int(1, 86_400), '300'),
	REFRESH_TOKEN_LIFETIME: v.optional(int(60, 365 * 86_400), '86400'),
	SESSION_LIFETIME: v.optional(int(60, 365 * 86_400), String(14 * 86_400)),
	LOGIN_RATE_LIMIT: v.optional(int(1, 1_000_000), '5'),
	LOGIN_RATE_WINDOW: v.optional(int(1, 86_400), '900'),
	GUESS_RATE_LIMIT: v.optional(int(1, 1_000_000), '5'),
	GUESS_RATE_WINDOW: v.optional(int(1, 86_400), '900'),
	TELEGRAM_API_ID: v.optional(int(1, 2 ** 31 - 1)),
	TELEGRAM_API_HASH: v.optional(
		v.pipe(v.string(), v.regex(/^[0-9a-f]{32}$/i, 'must be 32 hexadecimal characters')),
	),
	TDLIB_BACKEND: v.optional(v.picklist(['tdlib', 'emulator'], 'must be tdlib or emulator'), 'tdlib'),
	COMMAND_TIMEOUT: v.optional(int(1, 3_600_000), '30000'),
	/** argon2id hashes computed at once (src/auth/hash-limit.ts); by default one core is left free. */
	PASSWORD_HASH_CONCURRENCY: v.optional(int(1, 1024)),
	SUPERVISOR_TRANSPORT: v.optional(v.picklist(['socket', 'ipc'], 'must be socket or ipc'), 'socket'),
	UPLOAD_MAX_BYTES: v.optional(int(1, 2 * 1024 ** 3), String(50 * 1024 ** 2)),
	/** Bytes of replies one WebSocket may have waiting (it does not read) before it is closed with 1013. */
	WS_SEND_BUFFER_BYTES: v.optional(int(64 * 1024, 1024 ** 3), String(8 * 1024 ** 2)),
	/** Kinds of TDLib update always kept for resume and sent to a subscription that names none. */
	UPDATE_KINDS: v.optional(
		v.pipe(
			list,
			v.check((kinds) => kinds.length > 0, 'must name at least one kind of update'),
			v.check((kinds) => kinds.every(isTdUpdate), 'must be TDLib update names, comma-separated'),
		),
	),
	/** Updates kept per userbot for clients that resume. */
	UPDATE_BUFFER_SIZE: v.optional(int(1, 100_000), '256'),
	/** Seconds an update is kept for clients that resume. */
	UPDATE_BUFFER_AGE: v.optional(int(1, 7 * 86_400), '3600'),
	/** Bytes of updates sent ahead to a WebSocket before waiting for it to read them. */
	UPDATE_QUEUE_BYTES: v.optional(int(16 * 1024, 1024 ** 3), String(1024 ** 2)),
	/** What this process runs: the REST/WebSocket gateway, supervisor shards, or both. */
	ROLE: v.optional(v.picklist(['all', 'gateway', 'shard'], 'must be all, gateway or shard'), 'all'),
	/** Supervisor child processes this process runs (each with its own TDLib receive loop); `auto`: sized from the machine. */
	SUPERVISORS: v.optional(
		v.union([v.literal('auto'), int(1, 64)], 'must be auto or a whole number from 1 to 64'),
		'1',
	),
	/** The NATS server(s) that join gateways and shards; unset: one process, no bus. */
	BUS_URL: v.optional(
		v.pipe(
			list,
			v.check((urls) => urls.length > 0, 'must name a NATS server'),
			v.check(
				(urls) => urls.every((u) => /^(nats|tls):\/\/[^\s/]+$/i.test(u)),
				'must be nats://host:port (or tls://), comma-separated',
			),
		),
	),
	/** This shard's name on the bus; unset: a new random one at each start. */
	SHARD_ID: v.optional(
		v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, - or _')),
	),
	/** Milliseconds between heartbeats on the bus; a member silent for three is taken as gone. */
	BUS_HEARTBEAT: v.optional(int(50, 60_000), '1000'),
	/** A NATS credentials file (a user JWT and its nkey seed), for a server in operator mode. */
	BUS_CREDS: v.optional(v.pipe(v.string(), v.minLength(1, 'must not be empty'))),
	/** A file holding the user's nkey seed (`SU...`), for a server that lists users by nkey. */
	BUS_NKEY: v.optional(v.pipe(v.string(), v.minLength(1, 'must not be empty'))),
	/** TLS to the bus: the CA that signed the server's certificate, and this process's own. */
	BUS_TLS_CA: v.optional(v.pipe(v.string(), v.minLength(1, 'must not be empty'))),
	BUS_TLS_CERT: v.optional(v.pipe(v.string(), v.minLength(1, 'must not be empty'))),
	BUS_TLS_KEY: v.optional(v.pipe(v.string(), v.minLength(1, 'must not be empty'))),
	/** The flood governor (docs/flood-and-health.md): `key=count/seconds,...` over the defaults, or `off`. */
	FLOOD_LIMITS: v.optional(
		v.pipe(
			v.string(),
			v.check(
				floodLimitsValid,
				'must be off or key=count/seconds, comma-separated (docs/flood-and-health.md)',
			),
		),
	),
	/** Seconds a command may wait for its flood budget; past it, it is answered with `retry_after`. */
	FLOOD_MAX_WAIT: v.optional(int(0, 86_400), '30'),
	/** Hours after its log-in an account counts as new (warm-up: its intervals are doubled); 0: none. */
	FLOOD_WARMUP_HOURS: v.optional(int(0, 24 * 365), '24'),
	/** The emulated cloud's own flood limits, as Telegram's (`key=count/seconds,...,delay=seconds`). */
	EMULATOR_FLOOD_LIMITS: v.optional(
		v.pipe(
			v.string(),
			v.check(emulatorLimitsValid, 'must be key=count/seconds or delay=seconds, comma-separated'),
		),
	),
	/**
	 * Milliseconds between liveness probes of each TDLib client (docs/flood-and-health.md#self-healing);
	 * 0: none. A probe unanswered for CLIENT_PROBE_TIMEOUT restarts that client.
	 */
	CLIENT_PROBE_INTERVAL: v.optional(int(0, 3_600_000), '10000'),
	CLIENT_PROBE_TIMEOUT: v.optional(int(10, 3_600_000), '10000'),
	/** Tests: each supervisor child appends a line here per client started and stopped. */
	SUPERVISOR_RUN_LOG: v.optional(v.pipe(v.string(), v.minLength(1, 'must not be empty'))),
	/** Where the conformance record of TDLib requests goes (tests); unset: nothing is recorded. */
	TDLIB_REQUEST_LOG: v.optional(v.pipe(v.string(), v.minLength(1, 'must not be empty'))),
	// Capacity (issue 30, docs/capacity.md): the memory the userbots may take, a child's descriptors.
	/** MiB of memory the TDLib clients of this process may take in all; unset: 80% of the machine's. */
	MEMORY_BUDGET_MB: v.optional(int(1, 1024 ** 3)),
	/** A lower file descriptor limit for each supervisor child than the hard one (tests, small hosts). */
	CHILD_MAX_FDS: v.optional(int(1, 1 << 30)),
	// Life cycle of a fleet (issue 21): shared ports, bounded stops, clients behind proxies.
	/** Several processes of one deployment on one port (SO_REUSEPORT); off: a busy port stops the start. */
	REUSE_PORT: v.optional(bool, 'false'),
	// Gateway processes on one host (issue 30, docs/shards.md#gateways-on-one-host).
	/** Gateway processes one command runs on one port (ROLE=gateway); `auto`: one per core. */
	GATEWAYS: v.optional(
		v.union([v.literal('auto'), int(1, 64)], 'must be auto or a whole number from 1 to 64'),
		'1',
	),
	/** Set by the parent of GATEWAYS in each of its processes: which one this is (1 to GATEWAYS). */
	GATEWAY_INDEX: v.optional(int(1, 64)),
	// Operator controls (docs/operator.md): /metrics behind its own bearer token, or on its own listener.
	METRICS_TOKEN: v.optional(v.pipe(v.string(), v.minLength(16, 'must be at least 16 characters'))),
	METRICS_ADDRESS: v.optional(
		v.pipe(v.string(), v.regex(/^(?:\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/, 'must be host:port')),
	),
	/** Milliseconds a stop (SIGTERM, SIGINT) may take before the process exits anyway. */
	SHUTDOWN_TIMEOUT: v.optional(int(0, 3_600_000), '10000'),
	/** Addresses and CIDRs of the reverse proxies whose X-Forwarded-For / Forwarded is believed. */
	TRUSTED_PROXIES: v.optional(
		v.pipe(
			list,
			v.check((entries) => entries.every(isAddressOrCidr), 'must be IP addresses or CIDRs, comma-separated'),
		),
		'',
	),
	LOG_LEVEL: v.optional(
		v.picklist(['debug', 'info', 'warn', 'error', 'silent'], 'must be debug, info, warn, error or silent'),
		'info',
	),
})

export interface Secrets {
	jwtSecret: string
	sessionSecret: string
	/** Encrypts the per-userbot TDLib database keys at rest. */
	dataKey: string
}

export interface Config {
	port: number
	host: string
	dataDir: string
	databaseUrl: string
	databaseAuthToken?: string
	/** Plugins PLUGINS asks for (empty when unset: every plugin offered); `pluginsExplicit`: it is set. */
	plugins: string[]
	pluginsExplicit: boolean
	publicUrl: string
	allowedOrigins: string[]
	cookieSecure: boolean
	secrets: Secrets
	accessTokenLifetime: number
	refreshTokenLifetime: number
	sessionLifetime: number
	loginRateLimit: number
	loginRateWindow: number
	/** Wrong tries at a userbot's 2FA password or codes per window, per userbot (commands and log-in steps). */
	guessRateLimit: number
	guessRateWindow: number
	telegram: { apiId?: number; apiHash?: string; backend: 'tdlib' | 'emulator' }
	commandTimeoutMs: number
	/** argon2id hashes computed at once; more wait their turn. */
	passwordHashConcurrency: number
	supervisorTransport: 'socket' | 'ipc'
	uploadMaxBytes: number
	logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent'
	/** Listen with SO_REUSEPORT: processes of one deployment share the port (REUSE_PORT). */
	reusePort: boolean
	/**
	 * GATEWAYS: how many gateway processes share this host's port, and, in one of them, which one it is
	 * (GATEWAY_INDEX, set by their parent). `count` > 1 without `index`: this process is the parent.
	 */
	gateways: { count: number; index?: number }
	/** How long a stop may take before the process exits anyway, non-zero (SHUTDOWN_TIMEOUT). */
	shutdownTimeoutMs: number
	/** `/metrics`: its bearer token (METRICS_TOKEN) and its own listener (METRICS_ADDRESS, host:port). */
	metrics: { token?: string; address?: { host: string; port: number } }
	/** Proxies whose forwarding headers name the client (TRUSTED_PROXIES); empty: none. */
	trustedProxies: string[]
	updates: {
		/** Kept for resume, and what a subscription without `updates` gets. */
		defaultKinds: string[]
		bufferSize: number
		bufferAgeMs: number
		/** Per WebSocket: what is sent ahead of its reading; the rest waits in the stream. */
		queueBytes: number
	}
	/** Bytes of replies a WebSocket may have waiting before it is closed (1013). */
	wsSendBufferBytes: number
	/** Conformance record of every new shape of TDLib request (`npm test` sets it). */
	tdlibRequestLog?: string
	/** `all`: gateway and shards in one process; `gateway` and `shard` need the bus. */
	role: 'all' | 'gateway' | 'shard'
	/** Supervisor child processes run by this process (when it runs shards); `auto`: from the machine. */
	supervisors: number | 'auto'
	/** Capacity (docs/capacity.md): the clients' memory budget, and each child's descriptor limit if lowered. */
	capacity: { memoryBudgetMb?: number; childMaxFds?: number }
	/** The NATS bus between gateways and shards; absent: one process, no bus. */
	bus?: BusConfig
	/** Tests: where supervisor children record every client start and stop. */
	supervisorRunLog?: string
	/** The flood governor; `limits` null: off (FLOOD_LIMITS=off). */
	flood: { limits: FloodLimits | null; maxWaitMs: number; warmupMs: number }
	/** The emulator backend's flood limits (EMULATOR_FLOOD_LIMITS). */
	emulator: { floodLimits?: string }
	/** Liveness probes of TDLib clients (CLIENT_PROBE_*); `intervalMs` 0: none. */
	clientProbe: { intervalMs: number; timeoutMs: number }
	/**
	 * The environment this configuration was read from: each loaded plugin reads its own settings from
	 * it (src/plugin-settings.ts), so a plugin left out has its variables neither read nor required.
	 */
	env: Readonly<Record<string, string | undefined>>
}

function floodLimitsValid(text: string): boolean {
	if (text.trim() === 'off') return true
	try {
		parseFloodLimits(text)
		return true
	} catch {
		return false
	}
}

function emulatorLimitsValid(text: string): boolean {
	try {
		parseFloodLimits(text, ['delay'])
		return true
	} catch {
		return false
	}
}

/**
 * The governor paces ahead of the limits of the Telegram it talks to. Unset, with real TDLib: the
 * documented defaults. Unset, on the emulator: the emulated cloud's own limits
 * (EMULATOR_FLOOD_LIMITS), and none (off) when it has none (docs/flood-and-health.md, Decision).
 */
function floodLimits(e: {
	FLOOD_LIMITS?: string
	EMULATOR_FLOOD_LIMITS?: string
	TDLIB_BACKEND: string
}): FloodLimits | null {
	const text = e.FLOOD_LIMITS?.trim()
	if (text === 'off') return null
	if (text === undefined && e.TDLIB_BACKEND === 'emulator') {
		const { limits } = parseFloodLimits(e.EMULATOR_FLOOD_LIMITS ?? '', ['delay'])
		return Object.keys(limits).length > 0 ? limits : null
	}
	return { ...DEFAULT_FLOOD_LIMITS, ...parseFloodLimits(text ?? '').limits }
}

function floodConfig(e: {
	FLOOD_LIMITS?: string
	EMULATOR_FLOOD_LIMITS?: string
	TDLIB_BACKEND: string
	FLOOD_MAX_WAIT: number
	FLOOD_WARMUP_HOURS: number
}) {
	return {
		limits: floodLimits(e),
		maxWaitMs: e.FLOOD_MAX_WAIT * 1000,
		warmupMs: e.FLOOD_WARMUP_HOURS * 3_600_000,
	}
}

export interface BusConfig {
	/** The servers, without the credentials BUS_URL may carry (those are in `auth`). */
	servers: string[]
	/** This process's shard name, when it runs one (ROLE=shard or all). */
	shardId?: string
	heartbeatMs: number
	/** How this process proves who it is to the NATS server; absent: anonymous. */
	auth?: BusAuth
	/** Present: TLS is required (a `tls://` server or a BUS_TLS_* file); the files, when given. */
	tls?: { caFile?: string; certFile?: string; keyFile?: string }
}

export type BusAuth =
	| { kind: 'password'; user: string; pass: string }
	| { kind: 'token'; token: string }
	| { kind: 'nkey'; seedFile: string }
	| { kind: 'creds'; file: string }

export { ConfigError }

function secretsFromEnv(jwtSecret: string | undefined, sessionSecret: string | undefined): Secrets {
	if (!jwtSecret || !sessionSecret)
		throw new ConfigError(
			`${jwtSecret ? 'SESSION_SECRET' : 'JWT_SECRET'}: must be set here (no DATA_DIR to keep it in)`,
		)
	return { jwtSecret, sessionSecret, dataKey: '' }
}

/** Secrets not given in the environment are generated once into the data folder (mode 0600). */
function loadSecrets(dataDir: string, given: Partial<Secrets>): Secrets {
	const file = join(dataDir, 'secrets.json')
	try {
		return readOrGenerateSecrets(file, dataDir, given)
	} catch (err) {
		const why =
			err instanceof SyntaxError ? 'it is not valid JSON' : String((err as Error).message).split('\n')[0]
		throw new ConfigError(`DATA_DIR: cannot keep the generated secrets in ${file}: ${why}`)
	}
}

function readOrGenerateSecrets(
	file: string,
	dataDir: string,
	given: Partial<Secrets>,
	retry = true,
): Secrets {
	let stored: Partial<Secrets> = {}
	const existed = existsSync(file)
	if (existed) stored = JSON.parse(readFileSync(file, 'utf8')) as Partial<Secrets>
	const random = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')
	const merged: Secrets = {
		jwtSecret: given.jwtSecret ?? stored.jwtSecret ?? random(),
		sessionSecret: given.sessionSecret ?? stored.sessionSecret ?? random(),
		dataKey: stored.dataKey ?? random(),
	}
	const toStore = {
		jwtSecret: given.jwtSecret ? stored.jwtSecret : merged.jwtSecret,
		sessionSecret: given.sessionSecret ? stored.sessionSecret : merged.sessionSecret,
		dataKey: merged.dataKey,
	}
	if (JSON.stringify(toStore) !== JSON.stringify(stored)) {
		mkdirSync(dataDir, { recursive: true, mode: 0o700 })
		// Replicas on one DATA_DIR start together: the first to publish a new file wins, the others
		// read its secrets (tokens one signs, the others accept).
		if (!publishSecrets(file, JSON.stringify(toStore), !existed) && retry)
			return readOrGenerateSecrets(file, dataDir, given, false)
	}
	return merged
}

/**
 * Writes the file whole or not at all (a temporary file, then a link or a rename): a reader never
 * sees half of it. A new file is linked, which fails when another process made it first (false).
 */
export function publishSecrets(file: string, content: string, fresh: boolean): boolean {
	const tmp = `${file}.${process.pid}.${Date.now()}.tmp`
	writeFileSync(tmp, content, { mode: 0o600 })
	try {
		if (!fresh) renameSync(tmp, file)
		else linkSync(tmp, file)
		return true
	} catch (err) {
		if (fresh && (err as NodeJS.ErrnoException).code === 'EEXIST') return false
		throw err
	} finally {
		rmSync(tmp, { force: true })
	}
}

/**
 * A `PLUGINS` entry is a plugin id (built in, or given to createApp in code), a package name or a
 * path. Which it is, and whether it can be found, is known when the app is made (createApp, before
 * anything is opened); here only its form is checked.
 */
function checkPluginEntry(entry: string): void {
	if (isPackageSpecifier(entry) || isPathSpecifier(entry)) return
	throw new ConfigError(`PLUGINS: '${entry}' is not a plugin id, a package name or a path`)
}

/**
 * The bus's servers and how to authenticate to them. Credentials in BUS_URL (`user:password@`,
 * `token@`) are taken out of the URLs: nothing below ever holds them in a URL, so no log line or
 * error can show them. One way of authenticating, and TLS for every server or none.
 */
function busConfig(urls: string[], e: v.InferOutput<typeof EnvSchema>): BusConfig {
	const servers: string[] = []
	let fromUrl: BusAuth | undefined
	let tls = false
	for (const raw of urls) {
		const u = URL.parse(raw)
		if (!u || u.hostname === '')
			throw new ConfigError('BUS_URL: must be nats://host:port (or tls://), comma-separated')
		if (u.protocol === 'tls:') tls = true
		let auth: BusAuth | undefined
		const user = decodeURIComponent(u.username)
		const pass = decodeURIComponent(u.password)
		if (user !== '' && pass !== '') auth = { kind: 'password', user, pass }
		else if (user !== '') auth = { kind: 'token', token: user }
		else if (pass !== '') throw new ConfigError('BUS_URL: a password needs a user name (user:password@host)')
		if (auth) {
			if (fromUrl && JSON.stringify(fromUrl) !== JSON.stringify(auth))
				throw new ConfigError('BUS_URL: every server must carry the same credentials')
			fromUrl = auth
		}
		servers.push(`${u.protocol}//${u.host}`)
	}
	const ways = [
		fromUrl ? 'BUS_URL' : undefined,
		e.BUS_CREDS === undefined ? undefined : 'BUS_CREDS',
		e.BUS_NKEY === undefined ? undefined : 'BUS_NKEY',
	].filter(Boolean)
	if (ways.length > 1)
		throw new ConfigError(`${ways[1]}: use one way of authenticating to the bus, not ${ways.join(' and ')}`)
	for (const name of ['BUS_CREDS', 'BUS_NKEY', 'BUS_TLS_CA', 'BUS_TLS_CERT', 'BUS_TLS_KEY'] as const) {
		const file = e[name]
		if (file !== undefined && !readable(file)) throw new ConfigError(`${name}: cannot read that file`)
	}
	if ((e.BUS_TLS_CERT === undefined) !== (e.BUS_TLS_KEY === undefined))
		throw new ConfigError(
			`${e.BUS_TLS_CERT === undefined ? 'BUS_TLS_CERT' : 'BUS_TLS_KEY'}: must be set together with ${e.BUS_TLS_CERT === undefined ? 'BUS_TLS_KEY' : 'BUS_TLS_CERT'}`,
		)
	const auth: BusAuth | undefined =
		fromUrl ??
		(e.BUS_CREDS !== undefined
			? { kind: 'creds', file: resolve(e.BUS_CREDS) }
			: e.BUS_NKEY !== undefined
				? { kind: 'nkey', seedFile: resolve(e.BUS_NKEY) }
				: undefined)
	const files = {
		...(e.BUS_TLS_CA === undefined ? {} : { caFile: resolve(e.BUS_TLS_CA) }),
		...(e.BUS_TLS_CERT === undefined ? {} : { certFile: resolve(e.BUS_TLS_CERT) }),
		...(e.BUS_TLS_KEY === undefined ? {} : { keyFile: resolve(e.BUS_TLS_KEY) }),
	}
	const config: BusConfig = { servers, shardId: e.SHARD_ID, heartbeatMs: e.BUS_HEARTBEAT }
	if (auth) config.auth = auth
	if (tls || Object.keys(files).length > 0) config.tls = files
	return config
}

function metricsConfig(token: string | undefined, address: string | undefined): Config['metrics'] {
	if (address === undefined) return token === undefined ? {} : { token }
	const colon = address.lastIndexOf(':')
	const port = Number(address.slice(colon + 1))
	if (port > 65535) throw new ConfigError('METRICS_ADDRESS: the port must be at most 65535')
	const host = address.slice(0, colon).replace(/^\[|\]$/g, '')
	return { ...(token === undefined ? {} : { token }), address: { host, port } }
}

/**
 * GATEWAYS (docs/shards.md#gateways-on-one-host): several gateways share the shards of a bus, so
 * ROLE=gateway; they share one port, which REUSE_PORT=false would forbid; each has its own metrics
 * listener, on the ports that follow METRICS_ADDRESS's.
 */
function gatewaysConfig(e: v.InferOutput<typeof EnvSchema>, reusePortSet: boolean): Config['gateways'] {
	const count = e.GATEWAYS === 'auto' ? Math.min(64, availableParallelism()) : e.GATEWAYS
	if (e.GATEWAYS !== 1 && e.ROLE !== 'gateway')
		throw new ConfigError(
			`GATEWAYS: several gateway processes need ROLE=gateway (they share the shards on the bus), not ROLE=${e.ROLE}`,
		)
	if (count > 1 && reusePortSet && !e.REUSE_PORT)
		throw new ConfigError(
			`REUSE_PORT: GATEWAYS=${e.GATEWAYS} shares one port: leave REUSE_PORT unset or true`,
		)
	const metricsPort = Number(e.METRICS_ADDRESS?.slice(e.METRICS_ADDRESS.lastIndexOf(':') + 1) ?? 0)
	if (metricsPort !== 0 && metricsPort + count - 1 > 65535)
		throw new ConfigError(
			`METRICS_ADDRESS: ${count} gateways take ${count} ports from ${metricsPort}, past 65535`,
		)
	if (e.GATEWAY_INDEX !== undefined && e.GATEWAY_INDEX > count)
		throw new ConfigError(`GATEWAY_INDEX: must be at most GATEWAYS (${count})`)
	return e.GATEWAY_INDEX === undefined ? { count } : { count, index: e.GATEWAY_INDEX }
}

function readable(file: string): boolean {
	try {
		accessSync(file, constants.R_OK)
		return statSync(file).isFile()
	} catch {
		return false
	}
}

/** Reads and checks the environment. Throws ConfigError with one line naming the bad variable. */
/**
 * `secrets: 'env'` (the edge entry, src/edge.ts, which has no file system): JWT_SECRET and
 * SESSION_SECRET must be set, nothing is read from or written to DATA_DIR, and there is no data key
 * (no userbot there to encrypt).
 */
export function loadConfig(
	env: Record<string, string | undefined> = process.env,
	opts: { secrets?: 'file' | 'env' } = {},
): Config {
	const input: Record<string, string> = {}
	for (const key of Object.keys(EnvSchema.entries)) {
		const value = env[key]
		if (value !== undefined && value !== '') input[key] = value
	}
	const parsed = v.safeParse(EnvSchema, input)
	if (!parsed.success) {
		const issue = parsed.issues[0]
		const name = issue.path?.[0]?.key
		throw new ConfigError(`${String(name ?? 'environment')}: ${issue.message}`)
	}
	const e = parsed.output
	if ((e.TELEGRAM_API_ID === undefined) !== (e.TELEGRAM_API_HASH === undefined)) {
		throw new ConfigError(
			`${e.TELEGRAM_API_ID === undefined ? 'TELEGRAM_API_ID' : 'TELEGRAM_API_HASH'}: must be set together with ${e.TELEGRAM_API_ID === undefined ? 'TELEGRAM_API_HASH' : 'TELEGRAM_API_ID'}`,
		)
	}
	if (e.ROLE !== 'all' && e.BUS_URL === undefined)
		throw new ConfigError(`ROLE: ${e.ROLE} needs BUS_URL (a NATS server joining gateways and shards)`)
	// Unset: every plugin offered to createApp (src/app.ts `builtInPlugins` by default).
	const plugins = e.PLUGINS ?? []
	for (const p of plugins) checkPluginEntry(p)
	const dupe = plugins.find((p, i) => plugins.indexOf(p) !== i)
	if (dupe !== undefined) throw new ConfigError(`PLUGINS: '${dupe}' is named twice`)
	const dataDir = resolve(e.DATA_DIR)
	const publicUrl = (
		e.PUBLIC_URL ?? `http://${e.HOST === '0.0.0.0' ? '127.0.0.1' : e.HOST}:${e.PORT}`
	).replace(/\/+$/, '')
	return {
		port: e.PORT,
		host: e.HOST,
		dataDir,
		databaseUrl: e.DATABASE_URL ?? `file:${join(dataDir, 'app.db')}`,
		databaseAuthToken: e.DATABASE_AUTH_TOKEN,
		plugins,
		pluginsExplicit: e.PLUGINS !== undefined,
		publicUrl,
		allowedOrigins: e.ALLOWED_ORIGINS.map((o) => o.replace(/\/+$/, '')),
		cookieSecure: e.COOKIE_SECURE ?? publicUrl.startsWith('https://'),
		secrets:
			opts.secrets === 'env'
				? secretsFromEnv(e.JWT_SECRET, e.SESSION_SECRET)
				: loadSecrets(dataDir, { jwtSecret: e.JWT_SECRET, sessionSecret: e.SESSION_SECRET }),
		accessTokenLifetime: e.ACCESS_TOKEN_LIFETIME,
		refreshTokenLifetime: e.REFRESH_TOKEN_LIFETIME,
		sessionLifetime: e.SESSION_LIFETIME,
		loginRateLimit: e.LOGIN_RATE_LIMIT,
		loginRateWindow: e.LOGIN_RATE_WINDOW,
		guessRateLimit: e.GUESS_RATE_LIMIT,
		guessRateWindow: e.GUESS_RATE_WINDOW,
		telegram: { apiId: e.TELEGRAM_API_ID, apiHash: e.TELEGRAM_API_HASH, backend: e.TDLIB_BACKEND },
		commandTimeoutMs: e.COMMAND_TIMEOUT,
		passwordHashConcurrency: e.PASSWORD_HASH_CONCURRENCY ?? Math.max(1, availableParallelism() - 1),
		supervisorTransport: e.SUPERVISOR_TRANSPORT,
		uploadMaxBytes: e.UPLOAD_MAX_BYTES,
		logLevel: e.LOG_LEVEL,
		reusePort: e.REUSE_PORT,
		gateways: gatewaysConfig(e, input.REUSE_PORT !== undefined),
		shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT,
		trustedProxies: e.TRUSTED_PROXIES,
		metrics: metricsConfig(e.METRICS_TOKEN, e.METRICS_ADDRESS),
		wsSendBufferBytes: e.WS_SEND_BUFFER_BYTES,
		updates: {
			defaultKinds: e.UPDATE_KINDS ?? [...DEFAULT_UPDATE_KINDS],
			bufferSize: e.UPDATE_BUFFER_SIZE,
			bufferAgeMs: e.UPDATE_BUFFER_AGE * 1000,
			queueBytes: e.UPDATE_QUEUE_BYTES,
		},
		tdlibRequestLog: e.TDLIB_REQUEST_LOG === undefined ? undefined : resolve(e.TDLIB_REQUEST_LOG),
		role: e.ROLE,
		supervisors: e.SUPERVISORS,
		capacity: { memoryBudgetMb: e.MEMORY_BUDGET_MB, childMaxFds: e.CHILD_MAX_FDS },
		bus: e.BUS_URL === undefined ? undefined : busConfig(e.BUS_URL, e),
		supervisorRunLog: e.SUPERVISOR_RUN_LOG === undefined ? undefined : resolve(e.SUPERVISOR_RUN_LOG),
		flood: floodConfig(e),
		emulator: { floodLimits: e.EMULATOR_FLOOD_LIMITS },
		clientProbe: { intervalMs: e.CLIENT_PROBE_INTERVAL, timeoutMs: e.CLIENT_PROBE_TIMEOUT },
		env: { ...env },
	}
}
