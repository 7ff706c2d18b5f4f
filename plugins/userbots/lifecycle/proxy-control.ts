import { and, eq, isNull } from 'drizzle-orm'
import {
	AddressRefused,
	type AppContext,
	createKeyedQueue,
	type Principal,
	RuntimeError,
	TdError,
	type TdProxy,
	userbot,
	writeAudit,
} from 'userbot-gateway/plugin'
import { userbotErrors } from './errors'
import { PROXY_ADDRESS_ERRORS } from './proxy-address'
import { type ProxyCheck, type ProxySettings, type ProxyView, toTdProxy } from './proxy-settings'
import type { UserbotService } from './service'

/** How long a health check may take: TDLib's own `pingProxy` gives up sooner through a dead proxy. */
const CHECK_DEADLINE_MS = 15_000

/**
 * A userbot's proxy (docs/operator.md#userbot-proxies): set, removed and checked, one change of a
 * userbot at a time. A change is stored first (the secrets sealed), then the client is started
 * again with it, so the proxy is in place before the client's first connection; then TDLib's
 * `pingProxy` measures it and the result is kept on the row, part of the userbot's view.
 */
export class ProxyControl {
	private readonly turns = createKeyedQueue()
	private readonly checkDeadline: number

	constructor(
		private readonly ctx: AppContext,
		private readonly service: UserbotService,
	) {
		this.checkDeadline = Math.min(ctx.config.commandTimeoutMs, CHECK_DEADLINE_MS)
	}

	set(principal: Principal, userbotId: number, settings: ProxySettings, client?: string): Promise<ProxyView> {
		return this.turns(String(userbotId), async () => {
			const row = await this.service.find(principal, userbotId)
			// Refused before it is stored (400 on `server`); the start that follows checks it again.
			await this.service.proxyAddresses.pinField(toTdProxy(settings))
			const columns = await this.service.proxyColumns(userbotId, settings)
			await this.ctx.db.transaction(async (tx) => {
				await tx.update(userbot).set(columns).where(live(userbotId))
				const { type, server, port } = settings.shown
				await writeAudit(tx, principal, {
					action: 'userbot.proxy_set',
					target: `userbot:${userbotId}`,
					detail: { type, server, port },
					client,
				})
			})
			const fresh = { ...row, ...columns }
			await this.service.restartClient(fresh)
			return this.measure(principal, userbotId)
		})
	}

	remove(principal: Principal, userbotId: number, client?: string): Promise<void> {
		return this.turns(String(userbotId), async () => {
			const row = await this.service.find(principal, userbotId)
			if (row.proxy === null) throw userbotErrors.notFound()
			const columns = { proxy: null, proxySecret: null, proxyCheck: null }
			await this.ctx.db.transaction(async (tx) => {
				await tx.update(userbot).set(columns).where(live(userbotId))
				await writeAudit(tx, principal, {
					action: 'userbot.proxy_removed',
					target: `userbot:${userbotId}`,
					client,
				})
			})
			await this.service.restartClient({ ...row, ...columns })
		})
	}

	/** Checks the proxy again; any member who sees the userbot may (it changes nothing but the result). */
	check(principal: Principal, userbotId: number): Promise<ProxyView> {
		return this.turns(String(userbotId), () => this.measure(principal, userbotId))
	}

	private async measure(principal: Principal, userbotId: number): Promise<ProxyView> {
		const row = await this.service.find(principal, userbotId)
		const proxy = await this.service.proxyOf(row)
		if (!proxy) throw userbotErrors.notFound()
		const check = await this.ping(userbotId, proxy)
		await this.ctx.db
			.update(userbot)
			.set({ proxyCheck: JSON.stringify(check) })
			.where(live(userbotId))
		const view = (await this.service.get(principal, userbotId)).proxy
		if (!view) throw userbotErrors.notFound()
		return view
	}

	/**
	 * TDLib's round trip to Telegram through `proxy`; always with the proxy, never without one, and
	 * to the address its server resolves to now, checked: a refused one is a failed check in our
	 * words, and TDLib dials nothing.
	 */
	private async ping(userbotId: number, stored: TdProxy): Promise<ProxyCheck> {
		const runtime = this.ctx.runtime
		const checked_at = new Date().toISOString()
		if (!runtime) throw userbotErrors.notConfigured()
		let proxy: TdProxy
		try {
			proxy = await this.service.proxyAddresses.pin(stored)
		} catch (err) {
			if (err instanceof AddressRefused)
				return { ok: false, error: PROXY_ADDRESS_ERRORS[err.reason], checked_at }
			throw err
		}
		try {
			const answer = await runtime.invoke(
				userbotId,
				{ _: 'pingProxy', proxy: { _: 'proxy', ...proxy } },
				{ timeoutMs: this.checkDeadline, label: 'userbots:proxy' },
			)
			return { ok: true, latency_ms: Math.round(answer.seconds * 1000), checked_at }
		} catch (err) {
			return { ok: false, error: checkError(err), checked_at }
		}
	}
}

const live = (userbotId: number) => and(eq(userbot.id, userbotId), isNull(userbot.deletedAt))

/** TDLib's own words for a failed ping; ours for a deadline or a client that is not there. */
function checkError(err: unknown): string {
	if (err instanceof TdError) return err.message
	if (err instanceof RuntimeError && err.code === 'timeout') return 'No answer through the proxy in time.'
	return 'The check could not run: the userbot’s client is not available.'
}
