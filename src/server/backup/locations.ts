import { join, resolve } from 'node:path'

/**
 * Where a deployment keeps what `backup` copies and `restore` puts back, read from the environment
 * as the server reads it (`DATA_DIR`, `DATABASE_URL`, same defaults) without loading the whole
 * configuration: that would generate a `secrets.json`, which must come from the backup instead.
 */
export interface Locations {
	dataDir: string
	/** The embedded database's file. */
	databaseFile: string
}

export type Located = { ok: true; where: Locations } | { ok: false; line: string }

export function locate(env: Record<string, string | undefined>, command: 'backup' | 'restore'): Located {
	const rawDir = env.DATA_DIR === undefined || env.DATA_DIR === '' ? './data' : env.DATA_DIR
	const dataDir = resolve(rawDir)
	const url = env.DATABASE_URL
	if (url === undefined || url === '')
		return { ok: true, where: { dataDir, databaseFile: join(dataDir, 'app.db') } }
	if (url.startsWith('file:')) {
		const path = url.slice('file:'.length).split('?')[0] ?? ''
		if (path !== '') return { ok: true, where: { dataDir, databaseFile: resolve(path) } }
	}
	const parsed = URL.parse(url)
	// Scheme and host only: never the user, password or `authToken` a URL may carry.
	const origin = parsed ? `${parsed.protocol}//${parsed.host}` : 'DATABASE_URL'
	return {
		ok: false,
		line:
			command === 'backup'
				? `backup: the database is a libSQL server (${origin}), not an embedded file: back it up with the server's own tools, and DATA_DIR with a file copy of a stopped server (docs/operator.md#backups)`
				: `restore: the database is a libSQL server (${origin}), not an embedded file: restore puts a backup back only into an embedded database (docs/operator.md#backups)`,
	}
}
