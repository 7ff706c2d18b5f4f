import { and, desc, eq } from 'drizzle-orm'
import { t } from 'elysia'
import {
	BEARER_OR_SESSION,
	HttpError,
	invite,
	json,
	notFound,
	type RestContext,
	ROUTE_ERRORS,
	randomToken,
	restRoute,
	RestSchemas as S,
	sha256,
	writeAudit,
} from 'userbot-gateway/plugin'
import { requireOwner } from '../guard'
import type { AccountsContext } from '../settings'

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

const owner = (ctx: RestContext, { request }: { request: Request }) => requireOwner(ctx, request)
const ID = t.Object({ id: S.PathId() })

export const inviteRoutes = [
	restRoute({
		method: 'post',
		path: '/accounts/invites/',
		body: S.InviteRequest,
		response: { 201: S.InviteCreated, ...ROUTE_ERRORS.badRequest, ...ROUTE_ERRORS.authed },
		detail: { summary: 'An invite to the company (owners)', tags: ['accounts'], security: BEARER_OR_SESSION },
		// The owner first: a caller who may not invite learns nothing from the body's checks.
		before: owner,
		handle: async (ctx: AccountsContext, { body: { email }, request, server, pre: owner }) => {
			const token = randomToken(32)
			const [row] = await ctx.db
				.insert(invite)
				.values({
					companyId: owner.companyId,
					email: email || null,
					tokenHash: sha256(token),
					invitedBy: owner.principal.userId,
					expiresAt: Date.now() + ctx.accounts.settings.inviteLifetime * 1000,
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
	}),
	restRoute({
		method: 'get',
		path: '/accounts/invites/',
		response: { 200: t.Array(S.Invite), ...ROUTE_ERRORS.authed },
		detail: {
			summary: "The company's invites, without tokens (owners)",
			tags: ['accounts'],
			security: BEARER_OR_SESSION,
		},
		before: owner,
		handle: async (ctx: RestContext, { pre: owner }) => {
			const rows = await ctx.db
				.select()
				.from(invite)
				.where(eq(invite.companyId, owner.companyId))
				.orderBy(desc(invite.id))
			const now = Date.now()
			return json(rows.map((r) => view(r, now)))
		},
	}),
	restRoute({
		method: 'post',
		path: '/accounts/invites/:id/revoke/',
		params: ID,
		response: { 200: S.Invite, ...ROUTE_ERRORS.authed, ...ROUTE_ERRORS.notFound },
		detail: { summary: 'Revokes an invite (owners)', tags: ['accounts'], security: BEARER_OR_SESSION },
		before: owner,
		handle: async (ctx: RestContext, { params, request, server, pre: owner }) => {
			const raw = params.id ?? ''
			const id = /^\d{1,15}$/.test(raw) ? Number(raw) : Number.NaN
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
	}),
] as const
