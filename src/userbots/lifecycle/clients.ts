import { asc, desc, isNull, sql } from 'drizzle-orm'
import { userbot } from '../../../db/schema'
import type { AppContext } from '../../context'
import type { TdProxy } from '../../telegram/proxy'
import { STATES } from '../auth-states'
import { UserbotError, userbotErrors } from '../errors'
import { openDatabaseKey, openProxySecret, sealProxySecret } from '../key-crypto'
import type { ProxyAddresses } from '../proxy-address'
import { type ProxySettings, toTdProxy } from '../proxy-settings'
import { mapRuntimeError } from '../runtime-calls'
import type { UserbotStates } from './states'

export type Row = typeof userbot.$inferSelect

const RESTORE_CONCURRENCY = 64

/**
 * Starts and stops userbots' TDLib clients through the runtime, each start through the state owner
 * (one start in flight per userbot, its reply the new client's state): from a row (its sealed
 * database key and proxy), at create, on a restart or log-out, and for every live userbot at start.
 */
export class UserbotClients {
	constructor(
		private readonly ctx: AppContext,
		private readonly states: UserbotStates,
		/** Where a proxy may be (PROXY_ALLOWED_HOSTS): checked again at each start. */
		readonly addresses: ProxyAddresses,
	) {}

	runtime() {
		if (!this.ctx.runtime) throw userbotErrors.notConfigured()
		return this.ctx.runtime
	}

	/** Starts the userbot's client unless it runs; a deleted userbot's only for its delete (to log out). */
	async ensure(row: Row, removing = false): Promise<string | undefined> {
		if (!removing) this.states.assertLive(row.id)
		const runtime = this.runtime()
		const known = runtime.authorizationState(row.id)
		if (known !== undefined && known !== STATES.closed) return known
		let key: string
		try {
			key = await openDatabaseKey(this.ctx.config.secrets.dataKey, row.id, row.encryptionKey)
		} catch {
			throw new UserbotError(500, 'The database key of this userbot cannot be read.', 'key_unreadable')
		}
		// Resolved and checked now, and TDLib given the address checked: what was public when the
		// proxy was set may not be any more.
		const proxy = await this.proxyOf(row)
		return this.start(row.id, key, removing, proxy && (await this.addresses.pinStart(proxy)))
	}

	/** Starts the client; `proxy`, when given, already checked and pinned to an address (`addresses`). */
	start(userbotId: number, encryptionKey: string, removing = false, proxy?: TdProxy): Promise<string> {
		const runtime = this.runtime()
		// Asked of the owner again here, after the awaits of `ensure`: the start message leaves at once.
		const send = () =>
			runtime
				.startClient(userbotId, proxy ? { encryptionKey, proxy } : { encryptionKey })
				.catch((err: unknown) => {
					throw mapRuntimeError(err)
				})
		return this.states.start(userbotId, send, removing)
	}

	/**
	 * Closes the userbot's client and starts it again from `row` (its proxy changed, a restart, a
	 * log-out): the proxy is applied before a client connects, never swapped under a running one.
	 */
	async restart(row: Row, logOut = false): Promise<string | undefined> {
		const runtime = this.runtime()
		this.states.assertLive(row.id)
		try {
			// Logged out, TDLib's database is the old account's: removed, so the new client starts empty.
			await runtime.stopClient(row.id, { logOut, removeData: logOut })
		} catch (err) {
			throw mapRuntimeError(err)
		}
		return this.ensure(row)
	}

	/** The columns that store `proxy` for the userbot: its secrets sealed. */
	async proxyColumns(userbotId: number, proxy: ProxySettings) {
		const hidden = Object.keys(proxy.hidden).length === 0 ? null : JSON.stringify(proxy.hidden)
		return {
			proxy: JSON.stringify(proxy.shown),
			proxySecret:
				hidden === null ? null : await sealProxySecret(this.ctx.config.secrets.dataKey, userbotId, hidden),
			proxyCheck: null,
		}
	}

	/** The stored proxy of `row` as TDLib takes it; undefined without one. */
	async proxyOf(row: Row): Promise<TdProxy | undefined> {
		if (row.proxy === null) return undefined
		try {
			const hidden =
				row.proxySecret === null
					? {}
					: JSON.parse(await openProxySecret(this.ctx.config.secrets.dataKey, row.id, row.proxySecret))
			return toTdProxy({ shown: JSON.parse(row.proxy), hidden })
		} catch {
			throw new UserbotError(500, 'The proxy settings of this userbot cannot be read.', 'proxy_unreadable')
		}
	}

	/**
	 * Starts the client of every live userbot from its TDLib database (logged-in ones first), so
	 * after a restart they run again without a new log-in. Failures are logged, never thrown.
	 */
	async restore(): Promise<void> {
		if (!this.ctx.runtime) return
		const started = Date.now()
		const rows = await this.ctx.db
			.select()
			.from(userbot)
			.where(isNull(userbot.deletedAt))
			.orderBy(desc(sql`${userbot.authorizationState} = ${STATES.ready}`), asc(userbot.id))
		let failed = 0
		let next = 0
		const worker = async () => {
			for (let row = rows[next++]; row; row = rows[next++]) {
				// The rows were read before; one may have been deleted since (restore goes on behind).
				if (this.states.isDeleted(row.id)) continue
				this.states.remember(row.id, row.companyId)
				try {
					await this.ensure(row)
				} catch (err) {
					if (this.states.isDeleted(row.id)) continue
					failed++
					this.ctx.log.warn('could not restore a userbot', { userbotId: row.id, error: String(err) })
				}
			}
		}
		await Promise.all(Array.from({ length: RESTORE_CONCURRENCY }, worker))
		this.ctx.log.info('userbots restored', { count: rows.length, failed, ms: Date.now() - started })
	}
}
