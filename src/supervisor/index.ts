import type { Config } from '../config'
import type { Logger } from '../logger'
import { SupervisorClient, type SupervisorOptions } from './client'
import type { TelegramRuntime } from './types'

export { SupervisorClient, type SupervisorOptions } from './client'
export type { InvokeOptions, RequestEvent, RuntimeEvent, StartClientOptions, TelegramRuntime } from './types'

/**
 * The Telegram runtime for an app: a supervisor child process running real TDLib or the emulator.
 * Null when the TDLib backend has no API credentials ("not configured").
 */
export async function createRuntime(
	config: Config,
	log: Logger,
	overrides: Partial<SupervisorOptions> = {},
): Promise<(TelegramRuntime & { readonly pid: number | undefined }) | null> {
	const { apiId, apiHash, backend } = config.telegram
	if (backend === 'tdlib' && (apiId === undefined || apiHash === undefined)) return null
	const env: Record<string, string> = {}
	if (apiId !== undefined && apiHash !== undefined) {
		env.TELEGRAM_API_ID = String(apiId)
		env.TELEGRAM_API_HASH = apiHash
	}
	const client = new SupervisorClient({
		backend,
		dataDir: config.dataDir,
		transport: config.supervisorTransport,
		commandTimeoutMs: config.commandTimeoutMs,
		log,
		...overrides,
		env: { ...env, ...overrides.env },
	})
	await client.start()
	return client
}
