import { type AnyElysia, Elysia } from 'elysia'
import { type DatabaseHandle, openDatabase } from '../db/client'
import { probeDatabase } from '../db/health'
import { accountsPlugin } from '../plugins/accounts'
import { apiAccountsPlugin } from '../plugins/api-accounts'
import { chatAdminPlugin } from '../plugins/commands-chat-admin'
import { membersPlugin } from '../plugins/commands-members'
import { messagesPlugin } from '../plugins/commands-messages'
import { securityPlugin } from '../plugins/commands-security'
import { sessionsPlugin } from '../plugins/commands-sessions'
import { userbotsPlugin } from '../plugins/userbots'
import { createAuthenticator } from './auth'
import { bridgeInvalidations } from './bus/invalidation'
import { createProcessRuntime, type ProcessRuntime } from './bus/process'
import { lastUpdateSeq } from './bus/update-log'
import type { CommandGroup } from './commands/define'
import type { RegisteredCommand } from './commands/registry'
import type { Config } from './config'
import type { AppContext, CompanyEvent } from './context'
import { createGateway, MAX_FRAME_BYTES } from './gateway'
import { errorHandler } from './http/errors'
import { createLogger, type Logger } from './logger'
import type { PluginDefinition } from './plugin'
import { recordRequests } from './supervisor/request-log'
import { createUpdateHub } from './updates/hub'
import { createUserbotDirectory } from './userbots/directory'

/** Every plugin this build knows, in load order. `PLUGINS` picks among them. */
export const ALL_PLUGINS: readonly PluginDefinition[] = [
	accountsPlugin,
	apiAccountsPlugin,
	userbotsPlugin,
	messagesPlugin,
	sessionsPlugin,
	securityPlugin,
	membersPlugin,
	chatAdminPlugin,
]

/** Room for multipart boundaries and part headers around an upload. */
const MULTIPART_ALLOWANCE = 1024 * 1024

export class StartupError extends Error {
	override name = 'StartupError'
}

export interface App {
	/** The composed Elysia app: `app.handle(request)` or `app.listen(...)`. */
	app: AnyElysia
	ctx: AppContext
	/** Every WebSocket command the app serves, by wire name, with its group. */
	commands: ReadonlyMap<string, RegisteredCommand>
	/** The WebSocket gateway's open sockets and the reply and update bytes waiting for them. */
	socketStats(userId?: number): { sockets: number; waitingBytes: number }
	handle: DatabaseHandle
	close(): Promise<void>
}

export interface CreateAppOptions {
	logger?: Logger
	/** Replace the plugin list (tests); default: every known plugin. */
	plugins?: readonly PluginDefinition[]
	/**
	 * REST only: no Telegram runtime (no supervisor child) and no `/ws`. For Deno (src/deno.ts),
	 * which has neither `Bun.spawn` nor Bun's WebSocket server; a plugin with commands cannot load.
	 */
	restOnly?: boolean
}

/**
 * Builds one isolated app: its database (migrations applied), Telegram runtime, plugins and
 * WebSocket gateway. Nothing is shared with another app in the same process.
 */
export async function createApp(config: Config, opts: CreateAppOptions = {}): Promise<App> {
	const log = opts.logger ?? createLogger(config.logLevel)
	const { chosen, skipped } = choosePlugins(config, opts.plugins ?? ALL_PLUGINS)
	const closers: Array<() => Promise<void> | void> = []
	const closeAll = async () => {
		for (const close of closers.reverse()) {
			try {
				await close()
			} catch (err) {
				log.warn('error while closing', { error: err instanceof Error ? err : String(err) })
			}
		}
		closers.length = 0
	}
	try {
		const handle = await openDatabase(config.databaseUrl, config.databaseAuthToken)
		closers.push(() => handle.close())
		if (config.role === 'shard')
			throw new StartupError('ROLE=shard serves no app: start it with createShardApp')
		const processRuntime: ProcessRuntime = opts.restOnly
			? { runtime: null }
			: await createProcessRuntime(config, log, closers)
		const runtime = processRuntime.runtime
		if (runtime && config.tdlibRequestLog) closers.push(recordRequests(runtime, config.tdlibRequestLog))
		const { app, ctx, commands, socketStats } = await compose(
			config,
			log,
			handle,
			processRuntime,
			chosen,
			closers,
			{
				websocket: !opts.restOnly,
			},
		)
		// Said once the app stands: a start that fails says its one line and nothing else.
		for (const s of skipped) log.info('plugin skipped', s)
		let closed = false
		return {
			app,
			ctx,
			commands,
			socketStats,
			handle,
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

function choosePlugins(
	config: Config,
	available: readonly PluginDefinition[],
): { chosen: PluginDefinition[]; skipped: Array<{ plugin: string; reason: string }> } {
	const chosen: PluginDefinition[] = []
	const skipped: Array<{ plugin: string; reason: string }> = []
	for (const plugin of available) {
		if (!config.plugins.includes(plugin.id)) continue
		const reason = plugin.unavailable?.(config) ?? null
		if (reason) {
			if (config.pluginsExplicit) throw new StartupError(`PLUGINS: ${plugin.id} cannot load: ${reason}`)
			skipped.push({ plugin: plugin.id, reason })
			continue
		}
		chosen.push(plugin)
	}
	return { chosen, skipped }
}

async function compose(
	config: Config,
	log: Logger,
	handle: DatabaseHandle,
	processRuntime: ProcessRuntime,
	plugins: readonly PluginDefinition[],
	closers: Array<() => Promise<void> | void>,
	opts: { websocket: boolean },
) {
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
	const auth = createAuthenticator({ db: handle.db, config, log })
	let userbots = createUserbotDirectory(handle.db)
	if (bus && gatewayId) {
		// Several gateways: what one forgets (a logout, a deleted userbot), they all forget.
		const bridge = bridgeInvalidations({
			nc: bus.nc,
			origin: gatewayId,
			cache: auth.cache,
			directory: userbots,
			onUserbotDeleted: (userbotId) => updates.forget(userbotId),
			log,
		})
		closers.push(() => bridge.close())
		userbots = bridge.directory
	}
	const ctx: AppContext = {
		config,
		db: handle.db,
		log,
		auth,
		runtime,
		updates,
		userbots,
		registerCommands: (group) => groups.push(group),
		publish: (event) => {
			for (const fn of subscribers) fn(event)
		},
		onClose: (fn) => closers.push(fn),
	}

	// Bun refuses frames over 1 MiB itself; the gateway then closes with 1009 (contract §6). A body
	// may be as large as a media upload and its multipart framing, no larger.
	const app = new Elysia({
		// The gateway's outbox bounds what waits per socket and closes a socket that does not read;
		// Bun's own limit sits above it so that Bun never drops a reply on its own.
		websocket: {
			maxPayloadLength: MAX_FRAME_BYTES,
			backpressureLimit: Math.max(16 * 1024 ** 2, 2 * config.wsSendBufferBytes),
		},
		serve: { maxRequestBodySize: config.uploadMaxBytes + MULTIPART_ALLOWANCE },
	})
		.use(errorHandler(log))
		.get('/health', async ({ set }) => {
			const database = await probeDatabase(handle.client)
			const supervisor = runtime ? (runtime.health().up ? 'ok' : 'restarting') : 'not configured'
			if (database !== 'ok') set.status = 503
			return { status: database === 'ok' ? 'ok' : 'degraded', database, supervisor }
		})

	for (const plugin of plugins) {
		const routes = await plugin.build(ctx)
		if (routes) app.use(routes)
	}
	if (!opts.websocket) {
		const named = groups.map((g) => g.id).join(', ')
		if (named)
			throw new StartupError(`command groups need the WebSocket channel, which is off here: ${named}`)
		return {
			app,
			ctx,
			commands: new Map<string, RegisteredCommand>(),
			socketStats: () => ({ sockets: 0, waitingBytes: 0 }),
		}
	}
	const gateway = createGateway(ctx, groups)
	subscribers.add(gateway.publish)
	app.use(gateway.routes)
	return { app, ctx, commands: gateway.commands, socketStats: gateway.stats }
}
