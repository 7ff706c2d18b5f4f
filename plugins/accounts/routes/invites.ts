import { and, desc, eq } from 'drizzle-orm'
import { Elysia } from 'elysia'
import { invite } from '../../../db/schema'
import { writeAudit } from '../../../src/audit/log'
import type { AuthCore } from '../../../src/auth'
import { randomToken, sha256 } from '../../../src/auth/crypto'
import { json } from '../../../src/auth/respond'
import { readJsonObject } from '../../../src/http/body'
import { HttpError, notFound } from '../../../src/http/errors'
import { FIELDS, parseFields } from '../fields'
import { requireOwner } from '../guard'

/**
 * Invites of the caller's company, for its owner only (403 otherwise): create (the raw token is
 * shown once, only its hash is kept), list (no tokens), revoke. A pending invite past its expiry
 * shows as `expired`.
 */
type InviteRow = typeof invite.$inferSelect

const view = (row: InviteRow, now = Date.now()) => ({
	id: row.id,
	email: row.email,
	state: row.state === 'pending' && row.expiresAt <= now ? 'expired' : row.state,
	expires_at: new Date(row.expiresAt).toISOString(),
	created_at: new Date(row.createdAt).toISOString(),
})

export const inviteRoutes = (core: AuthCore) =>
	new Elysia()
		.post(
			'/accounts/invites/',
			async ({ request, server }) => {
				const owner = await requireOwner(core, request)
				const body = await readJsonObject(request)
				const { email } = parseFields(body, { email: { ...FIELDS.email, optional: true } })
				const token = randomToken(32)
				const [row] = await core.db
					.insert(invite)
					.values({
						companyId: owner.companyId,
						email: email || null,
						tokenHash: sha256(token),
						invitedBy: owner.principal.userId,
						expiresAt: Date.now() + core.config.inviteLifetime * 1000,
					})
					.returning()
				if (!row) throw new Error('insert returned no row')
				await writeAudit(core.db, owner.principal, {
					action: 'member.invited',
					target: `invite:${row.id}`,
					client: core.clientAddress(server, request),
				})
				const { id, email: to, expires_at, state } = view(row)
				return json({ id, token, email: to, expires_at, state }, 201)
			},
			{ parse: 'none' },
		)
		.get('/accounts/invites/', async ({ request }) => {
			const owner = await requireOwner(core, request)
			const rows = await core.db
				.select()
				.from(invite)
				.where(eq(invite.companyId, owner.companyId))
				.orderBy(desc(invite.id))
			const now = Date.now()
			return json(rows.map((r) => view(r, now)))
		})
		.post(
			'/accounts/invites/:id/revoke/',
			async ({ request, params, server }) => {
				const owner = await requireOwner(core, request)
				const id = /^\d{1,15}$/.test(params.id) ? Number(params.id) : Number.NaN
				if (!Number.isSafeInteger(id)) throw notFound()
				const [row] = await core.db
					.select()
					.from(invite)
					.where(and(eq(invite.id, id), eq(invite.companyId, owner.companyId)))
				if (!row) throw notFound()
				if (row.state !== 'pending' && row.state !== 'revoked') {
					throw new HttpError(400, { detail: 'Only a pending invite can be revoked.', code: 'invalid_state' })
				}
				const [updated] = await core.db
					.update(invite)
					.set({ state: 'revoked' })
					.where(eq(invite.id, id))
					.returning()
				if (row.state === 'pending') {
					await writeAudit(core.db, owner.principal, {
						action: 'member.invite_revoked',
						target: `invite:${id}`,
						client: core.clientAddress(server, request),
					})
				}
				return json(view(updated ?? row))
			},
			{ parse: 'none' },
		)
