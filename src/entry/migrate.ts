import { openDatabase } from '../../db/client'
import { failureLine } from '../platform/bun/serve'
import { type Config, loadConfig } from '../server/config'

/**
 * `migrate`: apply the committed migrations to the configured database and stop, for a deployment
 * that migrates before it starts its servers (serving migrates too). One line either way.
 */
export async function migrateOnly(
	env: Record<string, string | undefined>,
): Promise<{ ok: boolean; line: string }> {
	let config: Config
	try {
		config = loadConfig(env)
	} catch (err) {
		return { ok: false, line: failureLine(err) }
	}
	try {
		const handle = await openDatabase(config.databaseUrl, config.databaseAuthToken)
		handle.close()
	} catch (err) {
		return { ok: false, line: failureLine(err) }
	}
	return { ok: true, line: `migrations applied: ${describeDatabase(config.databaseUrl)}` }
}

/** A file's path or a server's origin, never its credentials. */
function describeDatabase(url: string): string {
	if (url.startsWith('file:')) return url.slice('file:'.length)
	return URL.parse(url)?.origin ?? 'DATABASE_URL'
}
