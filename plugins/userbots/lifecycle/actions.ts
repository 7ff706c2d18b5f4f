import { and, eq, isNull } from 'drizzle-orm'
import { type AppContext, type Principal, userbot, writeAudit } from 'userbot-gateway/plugin'
import { STATES } from './auth-states'
import type { Row } from './clients'
import { UserbotError } from './errors'
import type { FileCache } from './file-cache'
import type { LifecycleParts } from './parts'

/**
 * Ends a logged-in account's Telegram session (TDLib's `logOut`, its TDLib folders removed, as
 * TDLib does after `authorizationStateClosed`), then starts a fresh client, which waits for a phone
 * number: the userbot, its id, name, proxy and uploads stay. What this process kept of the old
 * account goes with it: its updates kept for resume (the owner drops them on `LoggingOut`, on every
 * gateway that hears it) and its download cache's count (its files went with the folders).
 */
export async function logOutUserbot(
	parts: LifecycleParts,
	cache: FileCache,
	principal: Principal,
	row: Row,
	client?: string,
): Promise<{ authorization_state: string }> {
	const { ctx, states } = parts
	const userbotId = row.id
	const state = states.current(userbotId, row.authorizationState)
	if (state !== STATES.ready)
		throw new UserbotError(400, `userbot is not logged in (state: ${state})`, 'wrong_state')
	const started = await parts.clients.restart(row, true)
	await cache.forget(userbotId)
	await ctx.db
		.update(userbot)
		.set({ phoneNumber: null })
		.where(and(eq(userbot.id, userbotId), isNull(userbot.deletedAt)))
	await writeAudit(ctx.db, principal, {
		action: 'userbot.logged_out',
		target: `userbot:${userbotId}`,
		client,
	})
	ctx.log.info('userbot logged out', { userbotId, by: principal.userId })
	return { authorization_state: states.current(userbotId, started ?? STATES.phone) }
}

/** Stops the userbot's TDLib client and starts it again from its database. */
export async function restartUserbot(
	parts: LifecycleParts,
	principal: Principal,
	row: Row,
	client?: string,
): Promise<{ authorization_state: string }> {
	const started = await parts.clients.restart(row)
	await writeAudit(parts.ctx.db, principal, {
		action: 'userbot.restarted',
		target: `userbot:${row.id}`,
		client,
	})
	return { authorization_state: parts.states.current(row.id, started ?? row.authorizationState) }
}

/** Renames the userbot, with its audit entry in the same transaction. */
export async function renameUserbot(
	ctx: AppContext,
	principal: Principal,
	row: Row,
	name: string,
	client?: string,
): Promise<void> {
	await ctx.db.transaction(async (tx) => {
		await tx
			.update(userbot)
			.set({ name })
			.where(and(eq(userbot.id, row.id), isNull(userbot.deletedAt)))
		await writeAudit(tx, principal, {
			action: 'userbot.renamed',
			target: `userbot:${row.id}`,
			detail: { name, previous: row.name },
			client,
		})
	})
}
