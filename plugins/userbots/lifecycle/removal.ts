import { eq } from 'drizzle-orm'
import { type Principal, userbot, writeAudit } from 'userbot-gateway/plugin'
import { STATES } from './auth-states'
import type { Row } from './clients'
import type { LifecycleParts } from './parts'
import { stopDeletedClient } from './stop-deleted'
import { removeUploads, removeUserbotFolders } from './uploads'

/**
 * Logs out of Telegram (when logged in), closes the client, removes its folders, and marks the
 * row deleted (it stays, for audit). Final at once in this process: from its first line the owner
 * says `deleted`, so no step, upload, restore or command may use the userbot. Space comes back
 * before anything is written: on a full disk the row's write can only succeed once the folders are
 * gone. When that write fails all the same, the answer says so, and a repeated DELETE finishes it.
 */
export async function removeUserbot(
	parts: LifecycleParts,
	principal: Principal,
	row: Row,
	client?: string,
): Promise<void> {
	const { ctx, states } = parts
	const userbotId = row.id
	const again = states.markDeleted(userbotId)
	ctx.userbots.markDeleted(userbotId)
	// The closing states still reach the company's sockets.
	states.remember(userbotId, row.companyId)
	const { dataDir } = ctx.config
	await removeUploads(dataDir, userbotId)
	const runtime = ctx.runtime
	if (runtime && !again)
		await stopDeletedClient({
			runtime,
			log: ctx.log,
			userbotId,
			authorized: states.current(userbotId, row.authorizationState) === STATES.ready,
			start: () => parts.clients.ensure(row, true),
			deadlineMs: parts.stepDeadline,
		})
	await removeUserbotFolders(dataDir, userbotId)
	states.forget(userbotId)
	parts.statuses.forget(userbotId)
	// Its updates, and every subscription to them, end with it.
	ctx.updates.forget(userbotId)
	await ctx.db.transaction(async (tx) => {
		await tx
			.update(userbot)
			.set({ deletedAt: Date.now(), deletedBy: principal.userId })
			.where(eq(userbot.id, userbotId))
		// A repeated DELETE finishing the job of one whose write failed is the same deletion.
		if (row.deletedAt === null && !again)
			await writeAudit(tx, principal, {
				action: 'userbot.deleted',
				target: `userbot:${userbotId}`,
				detail: { name: row.name },
				client,
			})
	})
	ctx.log.info('userbot deleted', { userbotId, by: principal.userId })
}
