import { availableParallelism } from 'node:os'
import { resolve } from 'node:path'
import * as v from 'valibot'
import { isTdUpdate } from '../../runtime/telegram/schema'
import { isAddressOrCidr } from '../http/client-address'
import {
	autoOr64,
	bool,
	emulatorLimitsValid,
	file,
	floodLimitsValid,
	int,
	list,
	seconds,
	secret,
	text,
	url,
} from './read'
import { setting } from './setting'

/**
 * The core's variables, each declared once, as the plugins declare theirs (src/server/plugin/settings.ts
 * `setting`): the field it fills, the variable it is read from, its schema with its default, bounds
 * and message. `Config` (src/server/config/index.ts) is derived from these declarations, so a new core variable
 * is one line here and a row in docs/configuration.md (test/config-declared.test.ts checks both).
 */

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

/** The core's settings that are fields of `Config` as they are read (a group: a field holding an object). */
export const CORE_SETTINGS = {
	port: setting('PORT', v.optional(int(0, 65535), '8000')),
	host: setting('HOST', v.optional(text, '127.0.0.1')),
	dataDir: setting(
		'DATA_DIR',
		v.optional(
			v.pipe(
				text,
				v.transform((d) => resolve(d)),
			),
			'./data',
		),
	),
	databaseAuthToken: setting('DATABASE_AUTH_TOKEN', v.optional(v.string())),
	/** Origins trusted beside PUBLIC_URL's, without a trailing slash. */
	allowedOrigins: setting(
		'ALLOWED_ORIGINS',
		v.optional(
			v.pipe(
				list,
				v.transform((os) => os.map((o) => o.replace(/\/+$/, ''))),
			),
			'',
		),
	),
	accessTokenLifetime: setting('ACCESS_TOKEN_LIFETIME', v.optional(int(1, 86_400), '300')),
	refreshTokenLifetime: setting('REFRESH_TOKEN_LIFETIME', v.optional(int(60, 365 * 86_400), '86400')),
	sessionLifetime: setting('SESSION_LIFETIME', v.optional(int(60, 365 * 86_400), String(14 * 86_400))),
	/** Failed password logins per e-mail and address per window, both account families in one counter. */
	loginRateLimit: setting('LOGIN_RATE_LIMIT', v.optional(int(1, 1_000_000), '5')),
	loginRateWindow: setting('LOGIN_RATE_WINDOW', v.optional(int(1, 86_400), '900')),
	/** Wrong tries at a userbot's 2FA password or codes per window, per userbot (commands and log-in steps). */
	guessRateLimit: setting('GUESS_RATE_LIMIT', v.optional(int(1, 1_000_000), '5')),
	guessRateWindow: setting('GUESS_RATE_WINDOW', v.optional(int(1, 86_400), '900')),
	telegram: {
		apiId: setting('TELEGRAM_API_ID', v.optional(int(1, 2 ** 31 - 1))),
		apiHash: setting(
			'TELEGRAM_API_HASH',
			v.optional(v.pipe(v.string(), v.regex(/^[0-9a-f]{32}$/i, 'must be 32 hexadecimal characters'))),
		),
		backend: setting(
			'TDLIB_BACKEND',
			v.optional(v.picklist(['tdlib', 'emulator'], 'must be tdlib or emulator'), 'tdlib'),
		),
		/** Real TDLib never lets its network go (`networkTypeNone`): tests and benchmarks, offline. */
		offline: setting('TDLIB_OFFLINE', v.optional(bool, 'false')),
	},
	commandTimeoutMs: setting('COMMAND_TIMEOUT', v.optional(int(1, 3_600_000), '30000')),
	/** argon2id hashes computed at once (src/server/auth/hash-limit.ts); by default one core is left free. */
	passwordHashConcurrency: setting(
		'PASSWORD_HASH_CONCURRENCY',
		v.optional(int(1, 1024), () => String(Math.max(1, availableParallelism() - 1))),
	),
	supervisorTransport: setting(
		'SUPERVISOR_TRANSPORT',
		v.optional(v.picklist(['socket', 'ipc'], 'must be socket or ipc'), 'socket'),
	),
	/** The size limit of a media upload (and of any request body). */
	uploadMaxBytes: setting('UPLOAD_MAX_BYTES', v.optional(int(1, 2 * 1024 ** 3), String(50 * 1024 ** 2))),
	/** Bytes of replies one WebSocket may have waiting (it does not read) before it is closed with 1013. */
	wsSendBufferBytes: setting(
		'WS_SEND_BUFFER_BYTES',
		v.optional(int(64 * 1024, 1024 ** 3), String(8 * 1024 ** 2)),
	),
	updates: {
		/** Kinds of TDLib update always kept for resume and sent to a subscription that names none. */
		defaultKinds: setting(
			'UPDATE_KINDS',
			v.optional(
				v.pipe(
					list,
					v.check((kinds) => kinds.length > 0, 'must name at least one kind of update'),
					v.check((kinds) => kinds.every(isTdUpdate), 'must be TDLib update names, comma-separated'),
				),
				DEFAULT_UPDATE_KINDS.join(','),
			),
		),
		/** Updates kept per userbot for clients that resume. */
		bufferSize: setting('UPDATE_BUFFER_SIZE', v.optional(int(1, 100_000), '256')),
		/** How long an update is kept for clients that resume (the variable in seconds). */
		bufferAgeMs: setting(
			'UPDATE_BUFFER_AGE',
			v.optional(v.pipe(int(1, 7 * 86_400), v.transform(seconds)), '3600'),
		),
		/** Bytes of updates sent ahead to a WebSocket before waiting for it to read them. */
		queueBytes: setting('UPDATE_QUEUE_BYTES', v.optional(int(16 * 1024, 1024 ** 3), String(1024 ** 2))),
	},
	/** What this process runs: the REST/WebSocket gateway, supervisor shards, or both. */
	role: setting(
		'ROLE',
		v.optional(v.picklist(['all', 'gateway', 'shard'], 'must be all, gateway or shard'), 'all'),
	),
	/** Supervisor child processes this process runs (each with its own TDLib receive loop); `auto`: sized from the machine. */
	supervisors: setting('SUPERVISORS', v.optional(autoOr64, '1')),
	emulator: {
		/** The emulated cloud's own flood limits, as Telegram's (`key=count/seconds,...,delay=seconds`). */
		floodLimits: setting(
			'EMULATOR_FLOOD_LIMITS',
			v.optional(
				v.pipe(
					v.string(),
					v.check(emulatorLimitsValid, 'must be key=count/seconds or delay=seconds, comma-separated'),
				),
			),
		),
	},
	/** Liveness probes of each TDLib client (docs/flood-and-health.md#self-healing); interval 0: none. */
	clientProbe: {
		intervalMs: setting('CLIENT_PROBE_INTERVAL', v.optional(int(0, 3_600_000), '10000')),
		timeoutMs: setting('CLIENT_PROBE_TIMEOUT', v.optional(int(10, 3_600_000), '10000')),
	},
	/** Tests: each supervisor child appends a line here per client started and stopped. */
	supervisorRunLog: setting('SUPERVISOR_RUN_LOG', v.optional(file)),
	/** Where the conformance record of TDLib requests goes (tests); unset: nothing is recorded. */
	tdlibRequestLog: setting('TDLIB_REQUEST_LOG', v.optional(file)),
	/** Capacity (docs/capacity.md): the memory the userbots may take, a child's descriptors. */
	capacity: {
		/** MiB of memory the TDLib clients of this process may take in all; unset: 80% of the machine's. */
		memoryBudgetMb: setting('MEMORY_BUDGET_MB', v.optional(int(1, 1024 ** 3))),
		/** A lower file descriptor limit for each supervisor child than the hard one (tests, small hosts). */
		childMaxFds: setting('CHILD_MAX_FDS', v.optional(int(1, 1 << 30))),
	},
	/** Several processes of one deployment on one port (SO_REUSEPORT); off: a busy port stops the start. */
	reusePort: setting('REUSE_PORT', v.optional(bool, 'false')),
	/** Milliseconds a stop (SIGTERM, SIGINT) may take before the process exits anyway. */
	shutdownTimeoutMs: setting('SHUTDOWN_TIMEOUT', v.optional(int(0, 3_600_000), '10000')),
	/** Addresses and CIDRs of the reverse proxies whose X-Forwarded-For / Forwarded is believed. */
	trustedProxies: setting(
		'TRUSTED_PROXIES',
		v.optional(
			v.pipe(
				list,
				v.check(
					(entries) => entries.every(isAddressOrCidr),
					'must be IP addresses or CIDRs, comma-separated',
				),
			),
			'',
		),
	),
	logLevel: setting(
		'LOG_LEVEL',
		v.optional(
			v.picklist(['debug', 'info', 'warn', 'error', 'silent'], 'must be debug, info, warn, error or silent'),
			'info',
		),
	),
}

/**
 * The core's variables that `Config` holds only as what is made of them (src/server/config/index.ts): the
 * database URL, plugins, origin and cookies, secrets, bus, flood governor, gateways and metrics,
 * each checked against the others there.
 */
export const CORE_INPUTS = {
	databaseUrl: setting(
		'DATABASE_URL',
		v.optional(
			v.pipe(
				v.string(),
				v.regex(
					/^(file:|libsql:\/\/|https?:\/\/|wss?:\/\/|:memory:$)/,
					'must start with file:, libsql://, http(s):// or ws(s)://',
				),
			),
		),
	),
	plugins: setting('PLUGINS', v.optional(list)),
	publicUrl: setting('PUBLIC_URL', v.optional(url)),
	cookieSecure: setting('COOKIE_SECURE', v.optional(bool)),
	jwtSecret: setting('JWT_SECRET', v.optional(secret)),
	sessionSecret: setting('SESSION_SECRET', v.optional(secret)),
	/** The NATS server(s) that join gateways and shards; unset: one process, no bus. */
	busUrl: setting(
		'BUS_URL',
		v.optional(
			v.pipe(
				list,
				v.check((urls) => urls.length > 0, 'must name a NATS server'),
				v.check(
					(urls) => urls.every((u) => /^(nats|tls):\/\/[^\s/]+$/i.test(u)),
					'must be nats://host:port (or tls://), comma-separated',
				),
			),
		),
	),
	/** This shard's name on the bus; unset: a new random one at each start. */
	shardId: setting(
		'SHARD_ID',
		v.optional(
			v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, - or _')),
		),
	),
	/** Milliseconds between heartbeats on the bus; a member silent for three is taken as gone. */
	busHeartbeat: setting('BUS_HEARTBEAT', v.optional(int(50, 60_000), '1000')),
	/** A NATS credentials file (a user JWT and its nkey seed), for a server in operator mode. */
	busCreds: setting('BUS_CREDS', v.optional(text)),
	/** A file holding the user's nkey seed (`SU...`), for a server that lists users by nkey. */
	busNkey: setting('BUS_NKEY', v.optional(text)),
	/** TLS to the bus: the CA that signed the server's certificate, and this process's own. */
	busTlsCa: setting('BUS_TLS_CA', v.optional(text)),
	busTlsCert: setting('BUS_TLS_CERT', v.optional(text)),
	busTlsKey: setting('BUS_TLS_KEY', v.optional(text)),
	/** The flood governor (docs/flood-and-health.md): `key=count/seconds,...` over the defaults, or `off`. */
	floodLimits: setting(
		'FLOOD_LIMITS',
		v.optional(
			v.pipe(
				v.string(),
				v.check(
					floodLimitsValid,
					'must be off or key=count/seconds, comma-separated (docs/flood-and-health.md)',
				),
			),
		),
	),
	/** Seconds a command may wait for its flood budget; past it, it is answered with `retry_after`. */
	floodMaxWait: setting('FLOOD_MAX_WAIT', v.optional(int(0, 86_400), '30')),
	/** Hours after its log-in an account counts as new (warm-up: its intervals are doubled); 0: none. */
	floodWarmupHours: setting('FLOOD_WARMUP_HOURS', v.optional(int(0, 24 * 365), '24')),
	/** Gateway processes one command runs on one port (ROLE=gateway); `auto`: one per core. */
	gateways: setting('GATEWAYS', v.optional(autoOr64, '1')),
	/** Set by the parent of GATEWAYS in each of its processes: which one this is (1 to GATEWAYS). */
	gatewayIndex: setting('GATEWAY_INDEX', v.optional(int(1, 64))),
	/** `/metrics` behind its own bearer token, or on its own listener (docs/operator.md). */
	metricsToken: setting(
		'METRICS_TOKEN',
		v.optional(v.pipe(v.string(), v.minLength(16, 'must be at least 16 characters'))),
	),
	metricsAddress: setting(
		'METRICS_ADDRESS',
		v.optional(
			v.pipe(v.string(), v.regex(/^(?:\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/, 'must be host:port')),
		),
	),
}
