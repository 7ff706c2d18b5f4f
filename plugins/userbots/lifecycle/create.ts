import { and, count, eq, isNull } from 'drizzle-orm'
import { type Principal, userbot, writeAudit } from 'userbot-gateway/plugin'
import { STATES } from './auth-states'
import { userbotErrors } from './errors'
import type { LifecycleParts } from './parts'
import { type ProxySettings, toTdProxy } from './proxy-settings'
import { removeUserbotFolders } from './uploads'

/**
 * Adds a userbot and starts its client; with `proxy`, its very first connection goes through it.
 * `client`: the caller's address, for the audit line.
 */
export async function createUserbot(
	parts: LifecycleParts,
	principal: Principal,
	name: string,
	proxy?: ProxySettings,
	client?: string,
): Promise<{ id: number; authorization_state: string }> {
	const { ctx, states } = parts
	const companyId = principal.companyId
	if (companyId === null) throw userbotErrors.noCompany()
	parts.clients.runtime()
	// Refused before anything is made (400 under `proxy`); the client connects to the address checked.
	const pinned = proxy && (await parts.clients.addresses.pinField(toTdProxy(proxy), 'proxy'))
	const key = parts.ctx.sealing.newDatabaseKey()
	const id = await insertRow(parts, companyId, principal.userId, name, key, proxy)
	states.remember(id, companyId)
	try {
		await parts.clients.start(id, key, false, pinned)
	} catch (err) {
		// Nothing ran: leave no client, no row and no folder behind. A start cut short by the
		// supervisor dying is kept for the next child, which would start it again: forget it.
		void ctx.runtime?.stopClient(id, { logOut: false, removeData: true }).catch(() => undefined)
		await ctx.db.delete(userbot).where(eq(userbot.id, id))
		await removeUserbotFolders(ctx.config.dataDir, id)
		states.forget(id)
		throw err
	}
	const state = states.current(id, STATES.parameters)
	await ctx.db.update(userbot).set({ authorizationState: state }).where(eq(userbot.id, id))
	// Written once the client runs: a create undone because its client could not start leaves no line.
	await writeAudit(ctx.db, principal, {
		action: 'userbot.created',
		target: `userbot:${id}`,
		detail: { name, proxy: proxy?.shown.type ?? null },
		client,
	})
	ctx.log.info('userbot created', { userbotId: id, companyId, by: principal.userId })
	return { id, authorization_state: state }
}

/** The new row, its database key sealed, counted against the company's limit in one transaction. */
function insertRow(
	parts: LifecycleParts,
	companyId: number,
	createdBy: number,
	name: string,
	key: string,
	proxy: ProxySettings | undefined,
): Promise<number> {
	const { companyUserbotLimit } = parts.limits
	return parts.ctx.db.transaction(async (tx) => {
		// Counted in the insert's own transaction, which holds the write lock from its start
		// (BEGIN IMMEDIATE; and this process's writes take turns): concurrent creates cannot all
		// pass a count made before the first of them was inserted.
		const [live] = await tx
			.select({ n: count() })
			.from(userbot)
			.where(and(eq(userbot.companyId, companyId), isNull(userbot.deletedAt)))
		if ((live?.n ?? 0) >= companyUserbotLimit) throw userbotErrors.limitReached(companyUserbotLimit)
		const [row] = await tx
			.insert(userbot)
			.values({ companyId, name, encryptionKey: '', createdBy })
			.returning({ id: userbot.id })
		if (!row) throw new Error('insert returned no row')
		const sealed = await parts.ctx.sealing.seal(row.id, 'database', key)
		await tx
			.update(userbot)
			.set({ encryptionKey: sealed, ...(proxy ? await parts.clients.proxyColumns(row.id, proxy) : {}) })
			.where(eq(userbot.id, row.id))
		return row.id
	})
}
