import type { Logger } from '../../common/util/logger'
import { StartupError } from '../../common/util/startup-error'
import type { FloodClass } from '../flood/limits'
import type { InvokeMessage } from '../supervisor/protocol'
import { READ_PART_BYTES } from '../telegram/file-parts'
import { tdFunction } from '../telegram/schema'
import { RuntimeError } from '../telegram/types'

/**
 * What a shard lets through: for each label a request may carry (a command's wire name, a
 * lifecycle step), the TDLib methods its sender declares, read from the same plugins the gateways
 * load (`PLUGINS`). A request without a label, or with one no plugin declares, sends nothing.
 * A command group that a plugin registers only from `build` (not in `commands`) is unknown here.
 */
/**
 * What a shard reads of the loaded plugins: their commands (names, TDLib methods, flood classes),
 * as src/server/commands/define.ts `CommandDefinition` declares them, and the labels of their
 * requests outside commands, each with its one method (the userbot lifecycle's, `PluginDefinition.labels`).
 */
export type CommandPlugins = ReadonlyArray<{
	readonly id: string
	readonly labels?: Readonly<Record<string, string>>
	readonly commands?: ReadonlyArray<{
		readonly name: string
		readonly methods: readonly string[]
		readonly flood?: FloodClass | 'by_method'
	}>
}>

/**
 * The one check of a TDLib request on its way to TDLib (src/server/commands/td-request.ts
 * `checkTdRequest`, the gateway's own), handed to the shard by the composition root. Throws a
 * `RuntimeError('bad_request')` that never echoes the request.
 */
export type TdRequestCheck = (
	request: unknown,
	check: {
		userbotId: number
		methods: (method: string) => boolean
		dataDir: string
		emulator?: boolean
	},
) => void

export function methodsByLabel(plugins: CommandPlugins): Map<string, ReadonlySet<string>> {
	const byLabel = new Map<string, ReadonlySet<string>>()
	for (const plugin of plugins) {
		for (const [label, method] of Object.entries(plugin.labels ?? {})) {
			// A plugin labels its own requests only (`<its id>:...`): never a command's name, nor
			// another plugin's label, whose methods it would widen.
			if (!label.startsWith(`${plugin.id}:`))
				throw new StartupError(
					`plugin '${plugin.id}': its label '${label}' does not start with '${plugin.id}:'`,
				)
			byLabel.set(label, new Set([method]))
		}
		for (const command of plugin.commands ?? []) byLabel.set(command.name, new Set(command.methods))
	}
	return byLabel
}

/**
 * A shard's check of a request from the bus: the gateway's own (`checkTdRequest`), with the methods
 * the request's label declares (and the emulator's test controls on the emulator). A refusal is
 * logged with the method when it is TDLib's (never the request), and thrown to be answered.
 */
export function checkShardRequest(
	m: InvokeMessage,
	opts: {
		methodsOf(label: string | undefined): ReadonlySet<string> | undefined
		checkRequest: TdRequestCheck
		dataDir: string
		emulator: boolean
	},
	log: Logger,
): void {
	const methods = opts.methodsOf(m.label)
	try {
		opts.checkRequest(m.request, {
			userbotId: m.userbotId,
			methods: (method) => methods?.has(method) === true || (opts.emulator && /^emulator[A-Z]/.test(method)),
			dataDir: opts.dataDir,
			emulator: opts.emulator,
		})
		checkPartSize(m.request)
	} catch (err) {
		const method =
			typeof m.request._ === 'string' && tdFunction(m.request._) ? m.request._ : 'not a TDLib method'
		log.warn('request refused', { userbotId: m.userbotId, method, reason: String((err as Error).message) })
		throw err
	}
}

/**
 * `readFilePart` (the files route, a file on this shard's host) reads at most READ_PART_BYTES a call:
 * a `count` of 0 (TDLib: to the end) or more would put a whole file in one bus message.
 */
function checkPartSize(request: Record<string, unknown>): void {
	if (request._ !== 'readFilePart') return
	const count = request.count
	if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 1 || count > READ_PART_BYTES)
		throw new RuntimeError('bad_request', `readFilePart reads 1 to ${READ_PART_BYTES} bytes a call`)
}
