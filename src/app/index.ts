import { type AnyElysia, Elysia } from 'elysia'
import { type DatabaseHandle, openDatabase } from '../../db/client'
import { probeDatabase } from '../../db/health'
import { accounts } from '../../plugins/accounts'
import { apiAccounts } from '../../plugins/api-accounts'
import { botApiPlugin } from '../../plugins/bot-api'
import { chatAdminPlugin } from '../../plugins/commands-chat-admin'
import { chatsPlugin } from '../../plugins/commands-chats'
import { membersPlugin } from '../../plugins/commands-members'
import { messagesPlugin } from '../../plugins/commands-messages'
import { securityPlugin } from '../../plugins/commands-security'
import { sessionsPlugin } from '../../plugins/commands-sessions'
import { userbots } from '../../plugins/userbots'
import { webhooks } from '../../plugins/webhooks'
import { type AuthCore, createAuthenticator } from '../auth'
import { bridgeInvalidations } from '../bus/invalidation'
import { createProcessRuntime, type ProcessRuntime } from '../bus/process'
import { lastUpdateSeq } from '../bus/update-log'
import { toAsyncApi } from '../catalog/asyncapi'
import { buildCatalog, type Catalog } from '../catalog/catalog'
import { catalogRoutes } from '../catalog/routes'
import type { CommandGroup } from '../commands/define'
import type { RegisteredCommand } from '../commands/registry'
import { type Config, ConfigError } from '../config'
import { isPathSpecifier, resolvePluginSpecifier } from '../config/plugin-specifier'
import { consoleRoutes } from '../console/routes'
import type { AppContext, CompanyEvent, UserbotStateReader } from '../context'
import { createGateway, MAX_FRAME_BYTES } from '../gateway'
import { errorHandler } from '../http/errors'
import { addCollectors } from '../metrics/collectors'
import { metricsListener, metricsRoute } from '../metrics/endpoint'
import { instrumentHttp } from '../metrics/http'
import { createMetrics } from '../metrics/metrics'
import { openApiRoutes } from '../openapi/document'
import { closerStack } from '../platform/shutdown'
import { type PluginDefinition, pluginSettingsOf } from '../plugin/define'
import { loadPluginModule } from '../plugin/loader'
import { RouteOwners } from '../plugin/route-owners'
import { PUBLIC_READ, policyHook } from '../policy/entry'
import { recordRequests } from '../supervisor/request-log'
import { createUpdateHub } from '../updates/hub'
import { createUserbotDirectory } from '../userbots/directory'
import { TELEGRAM_NOT_CONFIGURED } from '../userbots/errors'
import { createLogger, type Logger } from '../util/logger'
import { StartupError } from '../util/startup-error'
import { GatewayErrors } from '../wire/errors'
import { operatorRoutes } from './operator'

/**
 * The plugins of this repository, in load order: with `PLUGINS` unset, every one loads (api-accounts
 * only with MAIN_SERVER_URL). An embedding app adds its own: `createApp(config, { plugins:
 * [...builtInPlugins, myPlugin] })`.
 */
export const builtInPlugins: readonly PluginDefinition[] = [
	accounts(),
	apiAccounts(),
	userbots(),
	messagesPlugin,
	sessionsPlugin,
	securityPlugin,
	membersPlugin,
	chatAdminPlugin,
	chatsPlugin,
	webhooks(),
	botApiPlugin,
]
/** Room for multipart boundaries and part headers around an upload. */
const MULTIPART_ALLOWANCE = 1024 * 1024

export { StartupError }

export interface App {
	/** The composed Elysia app: `app.handle(request)` or `app.listen(...)`. */
	app: AnyElysia
	ctx: AppContext
	/** All of the auth core behind `ctx.auth` (caches, API keys...): for the core's routes and tests. */
	auth: AuthCore
	/** Every WebSocket command the app serves, by wire name, with its group. */
	commands: ReadonlyMap<string, RegisteredCommand>
	/** What `GET /api/commands/` serves: every command's input schema, result and error strings. */
	catalog: Catalog
	/** The WebSocket gateway's open sockets and the reply and update bytes waiting for them. */
	socketStats(userId?: number): { sockets: number; waitingBytes: number }
	/** Stopping: every WebSocket closes with 1001 once its commands are answered (src/platform/shutdown.ts). */
	goAway(): Promise<void>
	/** The port of the METRICS_ADDRESS listener, or null without one. */
	metricsPort: number | null
	/** The ids of the plugins loaded, in order (those that said they cannot load are not among them). */
	plugins: string[]
	handle: DatabaseHandle
	close(): Promise<void>
}

export interface CreateAppOptions {
	logger?: Logger
	/**
	 * The plugins this app may load, in load order: every one of them with `PLUGINS` unset, those it
	 * names when set (beside packages and paths it names). Default: `builtInPlugins`; spread them to
	 * keep them (`[...builtInPlugins, myPlugin]`).
	 */
	plugins?: readonly PluginDefinition[]
	/**
	 * REST only: no Telegram runtime (no supervisor child) and no `/ws`. For Deno (src/platform/deno/main.ts),
	 * which has neither `Bun.spawn` nor Bun's WebSocket server; a plugin with commands cannot load.
	 */
	restOnly?: boolean
}

/**
 * Builds one isolated app: its database (migrations applied), Telegram runtime, plugins and
 * WebSocket gateway. Nothing is shared with another app in the same process.
 */
export async function createApp(config: Config, opts: CreateAppOptions = {}): Promise<App> {
	// One of GATEWAYS=N: its lines, interleaved with the others' on one output, say whose they are.
	const gateway = config.gateways.index
	const log = opts.logger ?? createLogger(config.logLevel, gateway === undefined ? {} : { gateway })
	const { closers, closeAll } = closerStack(log)
	try {
		const { chosen, settings, skipped } = await choosePlugins(config, opts.plugins, opts.restOnly === true)
		const own = chosen.flatMap((p) => (p.migrations ? [{ id: p.id, folder: p.migrations }] : []))
		const handle = await openDatabase(config.databaseUrl, config.databaseAuthToken, undefined, own)
		closers.push(() => handle.close())
		if (config.role === 'shard')
			throw new StartupError('ROLE=shard serves no app: start it with createShardApp')
		const processRuntime: ProcessRuntime = opts.restOnly
			? { runtime: null }
			: await createProcessRuntime(config, log, closers, chosen)
		const runtime = processRuntime.runtime
		if (runtime && config.tdlibRequestLog) closers.push(recordRequests(runtime, config.tdlibRequestLog))
		const { app, ctx, auth, commands, catalog, socketStats, goAway } = await compose(
			config,
			log,
			handle,
			processRuntime,
			{ list: chosen, settings },
			closers,
			{
				websocket: !opts.restOnly,
			},
		)
		const listener = metricsListener(config, ctx.metrics, log)
		if (listener) closers.push(() => listener.stop())
		// Said once the app stands: a start that fails says its one line and nothing else.
		for (const s of skipped) log.info('plugin skipped', s)
		// Userbots would fail only when one is added (503): say at start what they need.
		if (!runtime && !opts.restOnly && chosen.some((p) => p.id === 'userbots'))
			log.warn('userbots cannot run', { reason: TELEGRAM_NOT_CONFIGURED })
		let closed = false
		return {
			app,
			ctx,
			auth,
			commands,
			catalog,
			socketStats,
			goAway,
			plugins: chosen.map((p) => p.id),
			handle,
			metricsPort: listener?.port ?? null,
			async close() {
				if (closed) return
				closed = true
				await closeAll()
			},
		}
	} catch (err) {
		// A failed start (a duplicate command name, a broken plugin) leaves no child or file open.
		await closeAll()
		throw err
	}
}

interface Offered {
	plugin: PluginDefinition
	/** Where it came from, for a conflict's line: `built in`, `createApp plugins`, `PLUGINS ./x`. */
	source: string
}

/**
 * The plugins to build: with `PLUGINS` unset every offered one (skipping, with a log line, those that
 * say they cannot load with this config); with it set, each entry in its order, an offered plugin by
 * id or else a package or path loaded here. Two plugins of one id stop the start, naming both.
 */
export async function choosePlugins(
	config: Config,
	given: readonly PluginDefinition[] | undefined,
	restOnly: boolean,
): Promise<{
	chosen: PluginDefinition[]
	/** Each chosen plugin's own settings, by id, read before anything is opened. */
	settings: Map<string, Record<string, unknown>>
	skipped: Array<{ plugin: string; reason: string }>
}> {
	const offered: Offered[] = (given ?? builtInPlugins).map((plugin) => ({
		plugin,
		source: given ? 'createApp plugins' : 'built in',
	}))
	let picked: Offered[]
	if (!config.pluginsExplicit) {
		picked = offered
	} else {
		picked = []
		for (const entry of config.plugins) {
			const found = offered.filter((o) => o.plugin.id === entry)
			if (found.length > 0) picked.push(...found)
			else if (!restOnly)
				picked.push({ plugin: await loadPlugin(entry, offered), source: `PLUGINS ${entry}` })
		}
	}
	const byId = new Map<string, Offered>()
	for (const o of picked) {
		const first = byId.get(o.plugin.id)
		if (first) {
			throw new StartupError(
				`plugin id '${o.plugin.id}' is claimed by both ${describe(first)} and ${describe(o)}`,
			)
		}
		byId.set(o.plugin.id, o)
	}
	const chosen: PluginDefinition[] = []
	const settings = new Map<string, Record<string, unknown>>()
	const skipped: Array<{ plugin: string; reason: string }> = []
	for (const { plugin } of picked) {
		// A bad value of a plugin's own setting stops the start like the core's (one line, its name).
		const own = pluginSettingsOf(plugin, config.env, { bus: config.bus })
		const reason = plugin.unavailable?.(config, own) ?? null
		if (reason) {
			if (config.pluginsExplicit) throw new StartupError(`PLUGINS: ${plugin.id} cannot load: ${reason}`)
			skipped.push({ plugin: plugin.id, reason })
			continue
		}
		chosen.push(plugin)
		settings.set(plugin.id, own)
	}
	return { chosen, settings, skipped }
}

/** A `PLUGINS` entry that names no offered plugin: a package or a path, else a configuration error. */
function loadPlugin(entry: string, offered: readonly Offered[]): Promise<PluginDefinition> {
	if (!isPathSpecifier(entry) && resolvePluginSpecifier(entry) === null) {
		const ids = offered.map((o) => o.plugin.id).join(', ')
		throw new ConfigError(
			`PLUGINS: unknown plugin '${entry}': no plugin of that id (${ids}), and no package of that name`,
		)
	}
	return loadPluginModule(entry)
}

const describe = (o: Offered) => `'${o.plugin.id}' (${o.source})`

async function compose(
	config: Config,
	log: Logger,
	handle: DatabaseHandle,
	processRuntime: ProcessRuntime,
	chosen: { list: readonly PluginDefinition[]; settings: ReadonlyMap<string, Record<string, unknown>> },
	closers: Array<() => Promise<void> | void>,
	opts: { websocket: boolean },
) {
	const plugins = chosen.list
	const groups: CommandGroup[] = []
	const subscribers = new Set<(event: CompanyEvent) => void>()
	const { runtime, bus, gatewayId } = processRuntime
	const updates = createUpdateHub({
		size: config.updates.bufferSize,
		ageMs: config.updates.bufferAgeMs,
		defaultKinds: config.updates.defaultKinds,
		onKinds: (kinds) => runtime?.setUpdateFilter(kinds),
		...(bus ? { lastSeqOf: (userbotId: number) => lastUpdateSeq(bus, userbotId) } : {}),
	})
	if (runtime) {
		closers.push(
			runtime.onEvent((event) => {
				if (event.type === 'update') updates.publish(event.userbotId, event.update, event.seq)
			}),
		)
	}
	const metrics = createMetrics()
	const auth = createAuthenticator({ db: handle.db, config, log, onLoginFailed: () => metrics.loginFailed() })
	let userbots = createUserbotDirectory(handle.db)
	if (bus && gatewayId) {
		// Several gateways: what one forgets (a logout, a deleted userbot), they all forget.
		const bridge = bridgeInvalidations({
			bus,
			origin: gatewayId,
			cache: auth.cache,
			directory: userbots,
			onUserbotDeleted: (userbotId) => updates.forget(userbotId),
			log,
		})
		closers.push(() => bridge.close())
		userbots = bridge.directory
	}
	let states: UserbotStateReader | null = null
	let runCommand: AppContext['runCommand'] = async () => ({
		ok: false,
		error: GatewayErrors.RUNTIME_UNAVAILABLE,
	})
	const ctx: AppContext = {
		config,
		db: handle.db,
		log,
		auth,
		runtime,
		updates,
		userbots,
		registerCommands: (group) => groups.push(group),
		registerStates: (owner) => {
			if (states) throw new StartupError('the userbots’ states have one owner: a second one was registered')
			states = owner
		},
		publish: (event) => {
			for (const fn of subscribers) fn(event)
		},
		metrics,
		onClose: (fn) => closers.push(fn),
		runCommand: (...args) => runCommand(...args),
		...(bus ? { bus } : {}),
	}

	// Bun refuses frames over 1 MiB itself; the gateway then closes with 1009 (docs/protocol.md#close-codes). A
	// body may be as large as a media upload and its multipart framing, no larger.
	const app = new Elysia({
		// The gateway's outbox bounds what waits per socket and closes a socket that does not read;
		// Bun's own limit sits above it so that Bun never drops a reply on its own.
		websocket: {
			maxPayloadLength: MAX_FRAME_BYTES,
			backpressureLimit: Math.max(16 * 1024 ** 2, 2 * config.wsSendBufferBytes),
		},
		// Elysia's Bun adapter would share a busy port (SO_REUSEPORT) by default: REUSE_PORT says.
		serve: { maxRequestBodySize: config.uploadMaxBytes + MULTIPART_ALLOWANCE, reusePort: config.reusePort },
	}).use(errorHandler(log))
	// Before any route: every request, of every plugin, gets its access line and its sample.
	instrumentHttp(app, auth, metrics, log)
	app.get(
		'/health',
		async ({ set }) => {
			const database = await probeDatabase(handle.client)
			const health = runtime?.health()
			const supervisor = health ? (health.up ? 'ok' : 'restarting') : 'not configured'
			// With the bus: lease mismatches and a lagging feed say `degraded`; no bus at all is a 503 too.
			const bus = health?.bus
			if (database !== 'ok' || (bus && !bus.connected)) set.status = 503
			const status = database === 'ok' && !bus?.degraded ? 'ok' : 'degraded'
			// Public and unauthenticated: whether a new userbot fits, nothing countable; the counts are
			// metrics behind METRICS_TOKEN (docs/capacity.md#watching-it).
			const room = runtime?.room?.()
			const capacity = room && { room: room.used < room.clients }
			return { status, database, supervisor, ...(bus ? { bus } : {}), ...(capacity ? { capacity } : {}) }
		},
		policyHook(PUBLIC_READ),
	)

	const routeOwners = new RouteOwners()
	routeOwners.claim('core', app)
	for (const plugin of plugins) {
		if (plugin.commands) ctx.registerCommands({ id: plugin.id, commands: plugin.commands })
		const routes = (await plugin.build?.(ctx, chosen.settings.get(plugin.id) ?? {})) ?? null
		if (!routes) continue
		routeOwners.claim(plugin.id, routes)
		app.use(routes)
	}
	let stats = () => ({ sockets: 0, waitingBytes: 0 })
	addCollectors(metrics, ctx, () => stats(), bus)
	const scrape = metricsRoute(config, metrics)
	if (scrape) {
		routeOwners.claim('core', scrape)
		app.use(scrape)
	}
	if (!opts.websocket) {
		const named = groups.map((g) => g.id).join(', ')
		if (named)
			throw new StartupError(`command groups need the WebSocket channel, which is off here: ${named}`)
		return {
			app,
			ctx,
			auth,
			commands: new Map<string, RegisteredCommand>(),
			catalog: buildCatalog(new Map()),
			socketStats: () => ({ sockets: 0, waitingBytes: 0 }),
			goAway: async () => {},
		}
	}
	const gateway = createGateway(
		ctx,
		groups,
		states ?? { authorizationState: (id) => runtime?.authorizationState(id) },
	)
	stats = gateway.stats
	runCommand = gateway.run
	subscribers.add(gateway.publish)
	routeOwners.claim('core', gateway.routes)
	app.use(gateway.routes)
	const operator = operatorRoutes(ctx, gateway.commands, auth.keys)
	routeOwners.claim('core', operator)
	app.use(operator)
	const catalog = buildCatalog(gateway.commands)
	const docs = catalogRoutes(catalog, toAsyncApi(catalog)).use(openApiRoutes(() => app, plugins))
	routeOwners.claim('core', docs)
	app.use(docs)
	// The web console needs the WebSocket channel, so it is served only where that is.
	const ids = new Set(plugins.map((p) => p.id))
	const webConsole = consoleRoutes({
		familyA: ids.has('accounts'),
		familyB: ids.has('api-accounts'),
		emulator: ctx.config.telegram.backend === 'emulator',
		log,
	})
	routeOwners.claim('core', webConsole)
	app.use(webConsole)
	return {
		app,
		ctx,
		auth,
		commands: gateway.commands,
		catalog,
		socketStats: gateway.stats,
		goAway: gateway.goAway,
	}
}
