import { and, desc, eq } from 'drizzle-orm'
import { Elysia } from 'elysia'
import {
	FIELDS,
	HttpError,
	invite,
	json,
	notFound,
	parseFields,
	type RestContext,
	randomToken,
	readJsonObject,
	sha256,
	writeAudit,
} from 'userbot-gateway/plugin'
import { requireOwner } from '../guard'
import type { AccountsSettings } from '../settings'

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

export const inviteRoutes = (ctx: RestContext, settings: AccountsSettings) =>
	new Elysia()
		.post(
			'/accounts/invites/',
			async ({ request, server }) => {
				const owner = await requireOwner(ctx, request)
				const body = await readJsonObject(request)
				const { email } = parseFields(body, { email: { ...FIELDS.email, optional: true } })
				const token = randomToken(32)
				const [row] = await ctx.db
					.insert(invite)
					.values({
						companyId: owner.companyId,
						email: email || null,
						tokenHash: sha256(token),
						invitedBy: owner.principal.userId,
						expiresAt: Date.now() + settings.inviteLifetime * 1000,
					})
					.returning()
				if (!row) throw new Error('insert returned no row')
				await writeAudit(ctx.db, owner.principal, {
					action: 'member.invited',
					target: `invite:${row.id}`,
					client: ctx.auth.clientAddress(server, request),
				})
				const { id, email: to, expires_at, state } = view(row)
				return json({ id, token, email: to, expires_at, state }, 201)
			},
			{ parse: 'none' },
		)
		.get('/accounts/invites/', async ({ request }) => {
			const owner = await requireOwner(ctx, request)
			const rows = await ctx.db
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
				const owner = await requireOwner(ctx, request)
				const id = /^\d{1,15}$/.test(params.id) ? Number(params.id) : Number.NaN
				if (!Number.isSafeInteger(id)) throw notFound()
				const [row] = await ctx.db
					.select()
					.from(invite)
					.where(and(eq(invite.id, id), eq(invite.companyId, owner.companyId)))
				if (!row) throw notFound()
				if (row.state !== 'pending' && row.state !== 'revoked') {
					throw new HttpError(400, { detail: 'Only a pending invite can be revoked.', code: 'invalid_state' })
				}
				const [updated] = await ctx.db
					.update(invite)
					.set({ state: 'revoked' })
					.where(eq(invite.id, id))
					.returning()
				if (row.state === 'pending') {
					await writeAudit(ctx.db, owner.principal, {
						action: 'member.invite_revoked',
						target: `invite:${id}`,
						client: ctx.auth.clientAddress(server, request),
					})
				}
				return json(view(updated ?? row))
			},
			{ parse: 'none' },
		)
