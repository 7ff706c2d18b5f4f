import { asc, desc, isNull, sql } from 'drizzle-orm'
import { type AppContext, type TdProxy, userbot } from 'userbot-gateway/plugin'
import { STATES } from './auth-states'
import { UserbotError, userbotErrors } from './errors'
import type { ProxyAddresses } from './proxy-address'
import { type ProxySettings, toTdProxy } from './proxy-settings'
import { mapRuntimeError } from './runtime-calls'
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
		// A start or restart under way is joined: what was known before it is the old client's.
		const underway = this.states.starting(row.id)
		if (underway) return underway
		const known = runtime.authorizationState(row.id)
		if (known !== undefined && known !== STATES.closed) return known
		return this.states.start(row.id, () => this.launch(row), removing)
	}

	/** The start itself: the key opened, the proxy checked and pinned, then the runtime's start. */
	private async launch(row: Row): Promise<string> {
		let key: string
		try {
			key = await this.ctx.sealing.open(row.id, 'database', row.encryptionKey)
		} catch {
			throw new UserbotError(500, 'The database key of this userbot cannot be read.', 'key_unreadable')
		}
		// Resolved and checked now, and TDLib given the address checked: what was public when the
		// proxy was set may not be any more.
		const proxy = await this.proxyOf(row)
		const pinned = proxy && (await this.addresses.pinStart(proxy))
		return this.send(row.id, key, pinned)
	}

	private send(userbotId: number, encryptionKey: string, proxy?: TdProxy): Promise<string> {
		return this.runtime()
			.startClient(userbotId, proxy ? { encryptionKey, proxy } : { encryptionKey })
			.catch((err: unknown) => {
				throw mapRuntimeError(err)
			})
	}

	/** Starts the client; `proxy`, when given, already checked and pinned to an address (`addresses`). */
	start(userbotId: number, encryptionKey: string, removing = false, proxy?: TdProxy): Promise<string> {
		return this.states.start(userbotId, () => this.send(userbotId, encryptionKey, proxy), removing)
	}

	/**
	 * Closes the userbot's client and starts it again from `row` (its proxy changed, a restart, a
	 * log-out): the proxy is applied before a client connects, never swapped under a running one.
	 * The stop and the new start are the owner's one start: a log-in step or a file asked meanwhile
	 * waits for the new client instead of finding none.
	 */
	async restart(row: Row, logOut = false): Promise<string | undefined> {
		const runtime = this.runtime()
		this.states.assertLive(row.id)
		// A start already under way ends first: this restart is not that start.
		for (let underway = this.states.starting(row.id); underway; underway = this.states.starting(row.id))
			await underway.catch(() => undefined)
		return this.states.start(row.id, async () => {
			try {
				// Logged out, TDLib's database is the old account's: removed, so the new client starts empty.
				await runtime.stopClient(row.id, { logOut, removeData: logOut })
			} catch (err) {
				throw mapRuntimeError(err)
			}
			return this.launch(row)
		})
	}

	/** The columns that store `proxy` for the userbot: its secrets sealed. */
	async proxyColumns(userbotId: number, proxy: ProxySettings) {
		const hidden = Object.keys(proxy.hidden).length === 0 ? null : JSON.stringify(proxy.hidden)
		return {
			proxy: JSON.stringify(proxy.shown),
			proxySecret: hidden === null ? null : await this.ctx.sealing.seal(userbotId, 'proxy', hidden),
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
					: JSON.parse(await this.ctx.sealing.open(row.id, 'proxy', row.proxySecret))
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
