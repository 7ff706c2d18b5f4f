import type { AnyElysia } from 'elysia'
import { type DatabaseHandle, openDatabase } from '../../db/client'
import { accounts } from '../../plugins/accounts'
import { apiAccounts } from '../../plugins/api-accounts'
import { botApiPlugin } from '../../plugins/bot-api'
import { chatAdminPlugin } from '../../plugins/commands-chat-admin'
import { chatsPlugin } from '../../plugins/commands-chats'
import { membersPlugin } from '../../plugins/commands-members'
import { messagesPlugin } from '../../plugins/commands-messages'
import { securityPlugin } from '../../plugins/commands-security'
import { sessionsPlugin } from '../../plugins/commands-sessions'
import { tdInvokePlugin } from '../../plugins/commands-td-invoke'
import { mcp } from '../../plugins/mcp'
import { userbots } from '../../plugins/userbots'
import { webhooks } from '../../plugins/webhooks'
import { createLogger, type Logger } from '../common/util/logger'
import { StartupError } from '../common/util/startup-error'
import { createProcessRuntime, type ProcessRuntime } from '../runtime/bus/process'
import { recordRequests } from '../runtime/supervisor/request-log'
import type { AuthCore } from '../server/auth'
import type { Catalog } from '../server/catalog/catalog'
import type { RegisteredCommand } from '../server/commands/registry'
import { checkTdRequest } from '../server/commands/td-request'
import { type Config, ConfigError, TELEGRAM_NOT_CONFIGURED } from '../server/config'
import { isPathSpecifier, resolvePluginSpecifier } from '../server/config/plugin-specifier'
import type { AppContext } from '../server/context'
import { metricsListener } from '../server/metrics/endpoint'
import { type PluginDefinition, pluginSettingsOf } from '../server/plugin/define'
import { loadPluginModule } from '../server/plugin/loader'
import { closerStack } from './closers'
import { compose } from './compose'

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
	tdInvokePlugin(),
	webhooks(),
	botApiPlugin,
	mcp(),
]

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
			: await createProcessRuntime(config, log, closers, chosen, checkTdRequest)
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
		// Commands made from the plugin's settings (td_invoke's allow-list) stand in for its defaults.
		chosen.push(plugin.commandsFor ? { ...plugin, commands: plugin.commandsFor(own) } : plugin)
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
