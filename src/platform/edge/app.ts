import { createClient } from '@libsql/client/web'
import { drizzle } from 'drizzle-orm/libsql/web'
import { type AnyElysia, Elysia } from 'elysia'
import { probeDatabase } from '../../../db/health'
import journal from '../../../db/migrations/meta/_journal.json' with { type: 'json' }
import * as schema from '../../../db/schema'
import { accountsRoutes } from '../../../plugins/accounts'
import { ACCOUNTS_SETTINGS } from '../../../plugins/accounts/settings'
import { apiAccountsRoutes } from '../../../plugins/api-accounts'
import { API_ACCOUNTS_SETTINGS } from '../../../plugins/api-accounts/settings'
import { createLogger, type Logger } from '../../common/util/logger'
import { createAuthenticator } from '../../server/auth'
import { type Config, ConfigError, loadConfig } from '../../server/config'
import type { RestContext } from '../../server/context'
import { errorHandler } from '../../server/http/errors'

/**
 * The REST families as one web-standard `fetch` handler, for edge hosts (Deno Deploy and the like):
 * libSQL over HTTP or WebSocket (`@libsql/client/web`, no native module), secrets from the
 * environment, no file read or written, argon2id in WebAssembly (src/server/auth/argon2-portable.ts). The
 * schema is the Bun server's: this entry never migrates, it checks that the database is current.
 * docs/operations.md#rest-at-the-edge.
 */

/** What `Deno.serve` (and hosts like it) hands a handler beside the request. */
export interface ServeInfo {
	remoteAddr?: { hostname?: string }
}

export interface EdgeApp {
	config: Config
	log: Logger
	fetch(request: Request, info?: ServeInfo): Promise<Response>
	close(): void
}

const REMOTE = /^(libsql|https?|wss?):\/\//

/** Thrown when the database has not had every migration this code expects. */
export class SchemaBehindError extends Error {
	override name = 'SchemaBehindError'
}

export async function createEdgeApp(env: Record<string, string | undefined>): Promise<EdgeApp> {
	const config = loadConfig(env, { secrets: 'env' })
	// The families' own settings, read here as the app reads them when it loads the plugins.
	const familyA = ACCOUNTS_SETTINGS.read(env)
	const familyB = API_ACCOUNTS_SETTINGS.read(env)
	if (!env.DATABASE_URL || !REMOTE.test(env.DATABASE_URL))
		throw new ConfigError('DATABASE_URL: must name a libSQL server (libsql, http(s) or ws(s) URL) here')
	if (familyA.smtpUrl)
		throw new ConfigError('SMTP_URL: mail over SMTP needs the Bun server (no TCP client here)')
	const log = createLogger(config.logLevel)
	const client = createClient({ url: config.databaseUrl, authToken: config.databaseAuthToken })
	try {
		await checkSchema(client)
		const db = drizzle(client, { schema })
		const auth = createAuthenticator({ db, config, log })
		const app: AnyElysia = new Elysia({ name: 'edge' }).use(errorHandler(log))
		app.get('/health', async ({ set }) => {
			const database = await probeDatabase(client)
			if (database !== 'ok') set.status = 503
			return { status: database === 'ok' ? 'ok' : 'degraded', database, supervisor: 'not configured' }
		})
		// The account plugins' routes on the context they need; the edge has no runtime or gateway.
		const ctx: RestContext = { config, db, log, auth }
		app.use(accountsRoutes(ctx, familyA))
		if (familyB.mainServerUrl) app.use(apiAccountsRoutes(ctx, familyB))
		return { config, log, fetch: withClientAddress(app), close: () => client.close() }
	} catch (err) {
		client.close()
		throw err
	}
}

/** The last migration of db/migrations must be applied (by `migrate`, or a Bun server's start). */
async function checkSchema(client: ReturnType<typeof createClient>): Promise<void> {
	const last = journal.entries.at(-1)?.when ?? 0
	let applied = 0
	try {
		const rows = await client.execute('select max(created_at) as last from __drizzle_migrations')
		applied = Number(rows.rows[0]?.last ?? 0)
	} catch {
		applied = 0
	}
	if (applied < last)
		throw new SchemaBehindError(
			'database: its schema is behind this code: run migrate (or start the Bun server) on it first',
		)
}

/**
 * Elysia's routes read the client's address through `server.requestIP` (rate limits are per
 * address); here it comes with each request (`info.remoteAddr`), kept beside the request.
 */
function withClientAddress(app: AnyElysia): EdgeApp['fetch'] {
	const addresses = new WeakMap<Request, string>()
	;(app as unknown as { server: unknown }).server = {
		requestIP: (request: Request) => {
			const address = addresses.get(request)
			return address === undefined ? null : { address }
		},
	}
	return async (request, info) => {
		const address = info?.remoteAddr?.hostname
		if (address) addresses.set(request, address)
		return app.fetch(request)
	}
}
