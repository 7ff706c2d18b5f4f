/**
 * The userbot lifecycle: a company's members add Telegram accounts, log them in step by step
 * (phone, code, 2FA password, or a QR link) over REST or as WebSocket commands, follow every
 * authorization state live as `chat_update` events, and delete them again (logged out, folders
 * removed, an audit row kept). At start it brings every live userbot's client back from its
 * TDLib database, so a restart needs no new log-in; each database key is sealed at rest.
 */

import { definePlugin, type Lookup, type SettingsOptions, within } from 'userbot-gateway/plugin'
import { userbotsApi } from './api'
import { userbotCommands } from './commands'
import { emulatorControlRoutes } from './emulator-control'
import { LIFECYCLE_METHODS } from './lifecycle/auth-states'
import { ProxyControl } from './lifecycle/proxy-control'
import { UserbotService } from './lifecycle/service'
import { removeUpload } from './lifecycle/uploads'
import { userbotRoutes } from './routes'
import { USERBOT_SETTINGS } from './settings'

/** How long the start waits for restored clients before serving anyway (the rest go on behind). */
const RESTORE_WAIT_MS = 5_000

/** The settings (./settings.ts) over the environment, and the plugin's seam for tests. */
export interface UserbotsPluginOptions extends SettingsOptions<typeof USERBOT_SETTINGS.shape> {
	/** Host name resolution of the proxies' servers (tests answer for names without a resolver). */
	lookup?: Lookup
}

/** The userbot lifecycle; `options` override the environment's UPLOAD_QUOTA_BYTES and the others. */
export const userbots = ({ lookup, ...options }: UserbotsPluginOptions = {}) =>
	definePlugin({
		id: 'userbots',
		// The TDLib method of each log-in step and of the files route: all a shard lets them send.
		labels: LIFECYCLE_METHODS,
		api: userbotsApi,
		settings: USERBOT_SETTINGS,
		options,
		async build(ctx, settings) {
			const service = new UserbotService(ctx, settings, lookup)
			// Its state owner is the one answer to "is this account ready", for the commands too.
			ctx.registerStates(service.states)
			// Its uploads and files, for the faces other than REST (the Bot API face's multipart and downloads).
			ctx.registerFiles({
				upload: (principal, userbotId, file) => service.upload(principal, userbotId, file),
				discard: (userbotId, name) => removeUpload(ctx.config.dataDir, userbotId, name),
				read: (principal, userbotId, fileId) => service.file(principal, userbotId, fileId),
			})
			const runtime = ctx.runtime
			if (runtime) {
				const restore = () =>
					service.restore().catch((err: unknown) => {
						ctx.log.error('restoring userbots failed', { error: err instanceof Error ? err : String(err) })
					})
				const unsubscribe = runtime.onEvent((event) => {
					if (event.type === 'runtime_restarted') {
						service.forgetClients()
						void restore()
					} else service.handle(event)
				})
				ctx.onClose(async () => {
					unsubscribe()
					await service.drain()
				})
				await within(restore(), RESTORE_WAIT_MS, undefined)
			}
			const served = { ctx, service, proxies: new ProxyControl(ctx, service) }
			ctx.registerCommands(userbotCommands(served))
			const routes = userbotRoutes(served)
			// Test controls of the emulated cloud: never with real TDLib, never unless asked for.
			if (settings.emulatorControl && ctx.config.telegram.backend === 'emulator')
				return routes.use(emulatorControlRoutes(served))
			return routes
		},
	})
