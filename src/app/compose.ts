import { type AnyElysia, Elysia } from 'elysia'
import type { DatabaseHandle } from '../../db/client'
import { userbotSealing } from '../common/util/key-crypto'
import type { Logger } from '../common/util/logger'
import { StartupError } from '../common/util/startup-error'
import { GatewayErrors } from '../common/wire/errors'
import { bridgeInvalidations } from '../runtime/bus/invalidation'
import type { ProcessRuntime } from '../runtime/bus/process'
import { lastUpdateSeq } from '../runtime/bus/update-log'
import { type AuthCore, createAuthenticator } from '../server/auth'
import { toAsyncApi } from '../server/catalog/asyncapi'
import { buildCatalog } from '../server/catalog/catalog'
import { catalogRoutes } from '../server/catalog/routes'
import type { CommandGroup } from '../server/commands/define'
import type { RegisteredCommand } from '../server/commands/registry'
import type { Config } from '../server/config'
import { consoleRoutes } from '../server/console/routes'
import type {
	AppContext,
	CompanyEvent,
	ServedCommand,
	UserbotDirectory,
	UserbotFiles,
	UserbotStateReader,
} from '../server/context'
import { createGateway, MAX_FRAME_BYTES } from '../server/gateway'
import { createUserbotDirectory } from '../server/gateway/directory'
import { errorHandler } from '../server/http/errors'
import { metricsRoute } from '../server/metrics/endpoint'
import { instrumentHttp } from '../server/metrics/http'
import { createMetrics, type Metrics } from '../server/metrics/metrics'
import { openApiRoutes } from '../server/openapi/document'
import type { PluginDefinition } from '../server/plugin/define'
import { checkSchemas, RouteOwners } from '../server/plugin/route-owners'
import { createUpdateHub, type UpdateHub } from '../server/updates/hub'
import type { KeyWebhooks } from '../server/updates/key-webhooks'
import { coreRouteData } from './core-routes'
import { healthRoutes } from './health'
import { addCollectors } from './metric-collectors'
import { operatorRoutes } from './operator'

/** Room for multipart boundaries and part headers around an upload. */
const MULTIPART_ALLOWANCE = 1024 * 1024

type Closers = Array<() => Promise<void> | void>

export interface Chosen {
	list: readonly PluginDefinition[]
	settings: ReadonlyMap<string, Record<string, unknown>>
}

/** The update hub, fed by the runtime's updates (with the bus: numbered from its update log). */
function updateHub(config: Config, { runtime, bus }: ProcessRuntime, closers: Closers): UpdateHub {
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
	return updates
}

/** Who owns which userbot; with several gateways, what one forgets (a logout, a deleted userbot) they all forget. */
function userbotDirectory(
	handle: DatabaseHandle,
	{ bus, gatewayId }: ProcessRuntime,
	auth: AuthCore,
	updates: UpdateHub,
	log: Logger,
	closers: Closers,
): UserbotDirectory {
	const directory = createUserbotDirectory(handle.db)
	if (!bus || !gatewayId) return directory
	const bridge = bridgeInvalidations({
		bus,
		origin: gatewayId,
		cache: auth.cache,
		directory,
		onUserbotDeleted: (userbotId) => updates.forget(userbotId),
		log,
	})
	closers.push(() => bridge.close())
	return bridge.directory
}

/** What the plugins are given; what they register (command groups, the userbots' states) is kept beside it. */
function appContext(
	base: Pick<AppContext, 'config' | 'db' | 'log' | 'auth' | 'runtime' | 'updates' | 'userbots' | 'metrics'>,
	bus: ProcessRuntime['bus'],
	closers: Closers,
) {
	const groups: CommandGroup[] = []
	const subscribers = new Set<(event: CompanyEvent) => void>()
	const owner: { states: UserbotStateReader | null } = { states: null }
	const files: { owner: UserbotFiles | null } = { owner: null }
	const filesOwner = () => {
		if (!files.owner) throw new Error("the userbots' files are not served: the userbots plugin is not loaded")
		return files.owner
	}
	const keyHooks: { owner: KeyWebhooks | null } = { owner: null }
	// A command run without a socket (the Bot API face): the gateway's, once it is made.
	const commands: { run: AppContext['runCommand']; served: readonly ServedCommand[] } = {
		run: async () => ({ ok: false, error: GatewayErrors.RUNTIME_UNAVAILABLE }),
		served: [],
	}
	const ctx: AppContext = {
		...base,
		sealing: userbotSealing(base.config.secrets.dataKey),
		registerCommands: (group) => groups.push(group),
		registerStates: (states) => {
			if (owner.states)
				throw new StartupError('the userbots’ states have one owner: a second one was registered')
			owner.states = states
		},
		files: {
			upload: (...args) => filesOwner().upload(...args),
			discard: (...args) => filesOwner().discard(...args),
			read: (...args) => filesOwner().read(...args),
		},
		registerFiles: (owner) => {
			if (files.owner)
				throw new StartupError('the userbots’ files have one owner: a second one was registered')
			files.owner = owner
		},
		registerKeyWebhooks: (hooks) => {
			if (keyHooks.owner)
				throw new StartupError('the key webhooks have one owner: a second one was registered')
			keyHooks.owner = hooks
		},
		keyWebhooks: () => keyHooks.owner,
		publish: (event) => {
			for (const fn of subscribers) fn(event)
		},
		onClose: (fn) => closers.push(fn),
		runCommand: (...args) => commands.run(...args),
		servedCommands: () => commands.served,
		...(bus ? { bus } : {}),
	}
	return { ctx, groups, subscribers, owner, commands }
}

/** The Elysia app, its error handler and its instrumentation, before any route. */
function httpApp(config: Config, auth: AuthCore, metrics: Metrics, log: Logger) {
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
	return app
}

/** Each plugin's commands registered and its routes built and mounted, in load order. */
async function buildPlugins(app: AnyElysia, ctx: AppContext, chosen: Chosen, routeOwners: RouteOwners) {
	for (const plugin of chosen.list) {
		if (plugin.api) checkSchemas(plugin.id, plugin.api)
		if (plugin.commands) ctx.registerCommands({ id: plugin.id, commands: plugin.commands })
		const routes = (await plugin.build?.(ctx, chosen.settings.get(plugin.id) ?? {})) ?? null
		if (!routes) continue
		routeOwners.claim(plugin.id, routes)
		app.use(routes)
	}
}

/** The core's routes beside the gateway: operators' tools, the catalog and documents, the web console. */
function webSocketRoutes(
	app: AnyElysia,
	ctx: AppContext,
	auth: AuthCore,
	gateway: ReturnType<typeof createGateway>,
	plugins: readonly PluginDefinition[],
	mount: (routes: AnyElysia) => void,
) {
	mount(gateway.routes)
	mount(operatorRoutes(ctx, gateway.commands, auth.keys))
	const catalog = buildCatalog(gateway.commands)
	mount(catalogRoutes(catalog, toAsyncApi(catalog)).use(openApiRoutes(() => app, coreRouteData, plugins)))
	// The web console needs the WebSocket channel, so it is served only where that is.
	const ids = new Set(plugins.map((p) => p.id))
	mount(
		consoleRoutes({
			familyA: ids.has('accounts'),
			familyB: ids.has('api-accounts'),
			emulator: ctx.config.telegram.backend === 'emulator',
			log: ctx.log,
		}),
	)
	return catalog
}

export async function compose(
	config: Config,
	log: Logger,
	handle: DatabaseHandle,
	processRuntime: ProcessRuntime,
	chosen: Chosen,
	closers: Closers,
	opts: { websocket: boolean },
) {
	const { runtime, bus } = processRuntime
	const updates = updateHub(config, processRuntime, closers)
	const metrics = createMetrics()
	const auth = createAuthenticator({ db: handle.db, config, log, onLoginFailed: () => metrics.loginFailed() })
	const userbots = userbotDirectory(handle, processRuntime, auth, updates, log, closers)
	const { ctx, groups, subscribers, owner, commands } = appContext(
		{ config, db: handle.db, log, auth, runtime, updates, userbots, metrics },
		bus,
		closers,
	)
	const app = httpApp(config, auth, metrics, log)
	// Public: the guard identifies nobody for it.
	app.use(healthRoutes({ handle, runtime }, auth.guard()))
	const routeOwners = new RouteOwners()
	routeOwners.claim('core', app)
	const mount = (routes: AnyElysia) => {
		routeOwners.claim('core', routes)
		app.use(routes)
	}
	await buildPlugins(app, ctx, chosen, routeOwners)
	let stats = () => ({ sockets: 0, waitingBytes: 0 })
	addCollectors(metrics, ctx, () => stats(), bus)
	const scrape = metricsRoute(config, metrics)
	if (scrape) mount(scrape)
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
	const states = owner.states ?? { authorizationState: (id: number) => runtime?.authorizationState(id) }
	const gateway = createGateway(ctx, groups, states)
	stats = gateway.stats
	commands.run = gateway.run
	subscribers.add(gateway.publish)
	const catalog = webSocketRoutes(app, ctx, auth, gateway, chosen.list, mount)
	commands.served = catalog.commands.flatMap((entry) => {
		const policy = gateway.commands.get(entry.name)?.policy
		return policy ? [{ catalog: entry, policy }] : []
	})
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
