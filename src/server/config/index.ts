import { accessSync, constants, statSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join, resolve } from 'node:path'
import type { BusAuth, BusConfig } from '../../runtime/bus/types'
import { DEFAULT_FLOOD_LIMITS, type FloodLimits, parseFloodLimits } from '../../runtime/flood/limits'
import { ConfigError } from './error'
import { isPackageSpecifier, isPathSpecifier } from './plugin-specifier'
import { readShape, type ValuesOf } from './read'
import { loadSecrets, type Secrets, secretsFromEnv } from './secrets'
import { CORE_INPUTS, CORE_SETTINGS } from './settings'

/**
 * Configuration comes from the environment (and `.env`, which Bun loads itself), checked once at
 * start. A bad value stops the server with one line naming the variable (docs/configuration.md).
 * Each variable is declared once, in src/server/config/settings.ts; `Config` is what those declarations
 * read, and what this file makes of the ones that depend on each other.
 */

export { publishSecrets, type Secrets } from './secrets'
export { DEFAULT_UPDATE_KINDS } from './settings'
export { ConfigError }

/** The core's settings as declared (src/server/config/settings.ts `CORE_SETTINGS`). */
type Declared = ValuesOf<typeof CORE_SETTINGS>
/** The variables read only to make the fields below (`CORE_INPUTS`). */
type Inputs = ValuesOf<typeof CORE_INPUTS>

export interface Config extends Declared {
	databaseUrl: string
	/** Plugins PLUGINS asks for (empty when unset: every plugin offered); `pluginsExplicit`: it is set. */
	plugins: string[]
	pluginsExplicit: boolean
	publicUrl: string
	cookieSecure: boolean
	secrets: Secrets
	/**
	 * GATEWAYS: how many gateway processes share this host's port, and, in one of them, which one it is
	 * (GATEWAY_INDEX, set by their parent). `count` > 1 without `index`: this process is the parent.
	 */
	gateways: { count: number; index?: number }
	/** `/metrics`: its bearer token (METRICS_TOKEN) and its own listener (METRICS_ADDRESS, host:port). */
	metrics: { token?: string; address?: { host: string; port: number } }
	/** The NATS bus between gateways and shards; absent: one process, no bus. */
	bus?: BusConfig
	/** The flood governor; `limits` null: off (FLOOD_LIMITS=off). */
	flood: { limits: FloodLimits | null; maxWaitMs: number; warmupMs: number }
	/**
	 * The environment this configuration was read from: each loaded plugin reads its own settings from
	 * it (src/server/plugin/settings.ts), so a plugin left out has its variables neither read nor required.
	 */
	env: Readonly<Record<string, string | undefined>>
}

/**
 * The governor paces ahead of the limits of the Telegram it talks to. Unset, with real TDLib: the
 * documented defaults. Unset, on the emulator: the emulated cloud's own limits
 * (EMULATOR_FLOOD_LIMITS), and none (off) when it has none (docs/flood-and-health.md, Decision).
 */
function floodLimits(core: Declared, e: Inputs): FloodLimits | null {
	const text = e.floodLimits?.trim()
	if (text === 'off') return null
	if (text === undefined && core.telegram.backend === 'emulator') {
		const { limits } = parseFloodLimits(core.emulator.floodLimits ?? '', ['delay'])
		return Object.keys(limits).length > 0 ? limits : null
	}
	return { ...DEFAULT_FLOOD_LIMITS, ...parseFloodLimits(text ?? '').limits }
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
function busConfig(urls: string[], e: Inputs): BusConfig {
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
		e.busCreds === undefined ? undefined : 'BUS_CREDS',
		e.busNkey === undefined ? undefined : 'BUS_NKEY',
	].filter(Boolean)
	if (ways.length > 1)
		throw new ConfigError(`${ways[1]}: use one way of authenticating to the bus, not ${ways.join(' and ')}`)
	for (const field of ['busCreds', 'busNkey', 'busTlsCa', 'busTlsCert', 'busTlsKey'] as const) {
		const file = e[field]
		if (file !== undefined && !readable(file))
			throw new ConfigError(`${CORE_INPUTS[field].env}: cannot read that file`)
	}
	if ((e.busTlsCert === undefined) !== (e.busTlsKey === undefined))
		throw new ConfigError(
			`${e.busTlsCert === undefined ? 'BUS_TLS_CERT' : 'BUS_TLS_KEY'}: must be set together with ${e.busTlsCert === undefined ? 'BUS_TLS_KEY' : 'BUS_TLS_CERT'}`,
		)
	const auth: BusAuth | undefined =
		fromUrl ??
		(e.busCreds !== undefined
			? { kind: 'creds', file: resolve(e.busCreds) }
			: e.busNkey !== undefined
				? { kind: 'nkey', seedFile: resolve(e.busNkey) }
				: undefined)
	const files = {
		...(e.busTlsCa === undefined ? {} : { caFile: resolve(e.busTlsCa) }),
		...(e.busTlsCert === undefined ? {} : { certFile: resolve(e.busTlsCert) }),
		...(e.busTlsKey === undefined ? {} : { keyFile: resolve(e.busTlsKey) }),
	}
	const config: BusConfig = { servers, shardId: e.shardId, heartbeatMs: e.busHeartbeat }
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
function gatewaysConfig(core: Declared, e: Inputs, reusePortSet: boolean): Config['gateways'] {
	const count = e.gateways === 'auto' ? Math.min(64, availableParallelism()) : e.gateways
	if (e.gateways !== 1 && core.role !== 'gateway')
		throw new ConfigError(
			`GATEWAYS: several gateway processes need ROLE=gateway (they share the shards on the bus), not ROLE=${core.role}`,
		)
	if (count > 1 && reusePortSet && !core.reusePort)
		throw new ConfigError(
			`REUSE_PORT: GATEWAYS=${e.gateways} shares one port: leave REUSE_PORT unset or true`,
		)
	const metricsPort = Number(e.metricsAddress?.slice(e.metricsAddress.lastIndexOf(':') + 1) ?? 0)
	if (metricsPort !== 0 && metricsPort + count - 1 > 65535)
		throw new ConfigError(
			`METRICS_ADDRESS: ${count} gateways take ${count} ports from ${metricsPort}, past 65535`,
		)
	if (e.gatewayIndex !== undefined && e.gatewayIndex > count)
		throw new ConfigError(`GATEWAY_INDEX: must be at most GATEWAYS (${count})`)
	return e.gatewayIndex === undefined ? { count } : { count, index: e.gatewayIndex }
}

function readable(file: string): boolean {
	try {
		accessSync(file, constants.R_OK)
		return statSync(file).isFile()
	} catch {
		return false
	}
}

/**
 * Reads and checks the environment. Throws ConfigError with one line naming the bad variable.
 * `secrets: 'env'` (the edge entry, src/platform/edge/main.ts, which has no file system): JWT_SECRET and
 * SESSION_SECRET must be set, nothing is read from or written to DATA_DIR, and there is no data key
 * (no userbot there to encrypt).
 */
export function loadConfig(
	env: Record<string, string | undefined> = process.env,
	opts: { secrets?: 'file' | 'env' } = {},
): Config {
	const core = readShape(CORE_SETTINGS, env)
	const e = readShape(CORE_INPUTS, env)
	const { apiId, apiHash } = core.telegram
	if ((apiId === undefined) !== (apiHash === undefined)) {
		throw new ConfigError(
			`${apiId === undefined ? 'TELEGRAM_API_ID' : 'TELEGRAM_API_HASH'}: must be set together with ${apiId === undefined ? 'TELEGRAM_API_HASH' : 'TELEGRAM_API_ID'}`,
		)
	}
	if (core.role !== 'all' && e.busUrl === undefined)
		throw new ConfigError(`ROLE: ${core.role} needs BUS_URL (a NATS server joining gateways and shards)`)
	// Unset: every plugin offered to createApp (src/app/index.ts `builtInPlugins` by default).
	const plugins = e.plugins ?? []
	for (const p of plugins) checkPluginEntry(p)
	const dupe = plugins.find((p, i) => plugins.indexOf(p) !== i)
	if (dupe !== undefined) throw new ConfigError(`PLUGINS: '${dupe}' is named twice`)
	const publicUrl = (
		e.publicUrl ?? `http://${core.host === '0.0.0.0' ? '127.0.0.1' : core.host}:${core.port}`
	).replace(/\/+$/, '')
	return {
		...core,
		databaseUrl: e.databaseUrl ?? `file:${join(core.dataDir, 'app.db')}`,
		plugins,
		pluginsExplicit: e.plugins !== undefined,
		publicUrl,
		cookieSecure: e.cookieSecure ?? publicUrl.startsWith('https://'),
		secrets:
			opts.secrets === 'env'
				? secretsFromEnv(e.jwtSecret, e.sessionSecret)
				: loadSecrets(core.dataDir, { jwtSecret: e.jwtSecret, sessionSecret: e.sessionSecret }),
		gateways: gatewaysConfig(core, e, (env.REUSE_PORT ?? '') !== ''),
		metrics: metricsConfig(e.metricsToken, e.metricsAddress),
		bus: e.busUrl === undefined ? undefined : busConfig(e.busUrl, e),
		flood: {
			limits: floodLimits(core, e),
			maxWaitMs: e.floodMaxWait * 1000,
			warmupMs: e.floodWarmupHours * 3_600_000,
		},
		env: { ...env },
	}
}

/** Why userbots cannot run on a server started without Telegram's credentials (said at start, and by a 503). */
export const TELEGRAM_NOT_CONFIGURED =
	'Telegram is not configured: set TELEGRAM_API_ID and TELEGRAM_API_HASH (get them at https://my.telegram.org), ' +
	'or TDLIB_BACKEND=emulator to try the service without Telegram'
