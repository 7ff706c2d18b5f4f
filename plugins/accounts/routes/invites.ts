import { and, desc, eq } from 'drizzle-orm'
import {
	BEARER_OR_SESSION,
	byParam,
	companyOf,
	HttpError,
	invite,
	json,
	notFound,
	OF_COMPANY,
	type RestContext,
	ROUTE_ERRORS,
	randomToken,
	restRoute,
	RestSchemas as S,
	sha256,
	writeAudit,
} from 'userbot-gateway/plugin'
import * as v from 'valibot'
import type { AccountsContext } from '../settings'

/**
 * Invites of the caller's company, for its owner only (the policy: 403 otherwise, docs/policy.md): create (the raw token is
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

const ID = S.IdParams

export const inviteRoutes = [
	restRoute({
		method: 'post',
		path: '/accounts/invites/',
		policy: { action: 'write', resource: 'invite', find: [OF_COMPANY] },
		body: S.InviteRequest,
		response: { 201: S.InviteCreated, ...ROUTE_ERRORS.badRequest, ...ROUTE_ERRORS.authed },
		detail: {
			operationId: 'createInvite',
			summary: 'An invite to the company (owners)',
			tags: ['accounts'],
			security: BEARER_OR_SESSION,
		},
		// The guard first: a caller who may not invite learns nothing from the body's checks.
		handle: async (ctx: AccountsContext, { body: { email }, request, server, principal }) => {
			const token = randomToken(32)
			const [row] = await ctx.db
				.insert(invite)
				.values({
					companyId: companyOf(principal),
					email: email || null,
					tokenHash: sha256(token),
					invitedBy: principal.userId,
					expiresAt: Date.now() + ctx.accounts.settings.inviteLifetime * 1000,
				})
				.returning()
			if (!row) throw new Error('insert returned no row')
			await writeAudit(ctx.db, principal, {
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
		policy: { action: 'read', resource: 'invite', find: [OF_COMPANY] },
		response: { 200: v.array(S.Invite), ...ROUTE_ERRORS.authed },
		detail: {
			operationId: 'listInvites',
			summary: "The company's invites, without tokens (owners)",
			tags: ['accounts'],
			security: BEARER_OR_SESSION,
		},
		handle: async (ctx: RestContext, { principal }) => {
			const rows = await ctx.db
				.select()
				.from(invite)
				.where(eq(invite.companyId, companyOf(principal)))
				.orderBy(desc(invite.id))
			const now = Date.now()
			return json(rows.map((r) => view(r, now)))
		},
	}),
	restRoute({
		method: 'post',
		path: '/accounts/invites/:id/revoke/',
		policy: { action: 'write', resource: 'invite', find: [byParam()], destructive: true },
		params: ID,
		response: { 200: S.Invite, ...ROUTE_ERRORS.authed, ...ROUTE_ERRORS.notFound },
		detail: {
			operationId: 'revokeInvite',
			summary: 'Revokes an invite (owners)',
			tags: ['accounts'],
			security: BEARER_OR_SESSION,
		},
		handle: async (ctx: RestContext, { params, request, server, principal }) => {
			const raw = params.id ?? ''
			const id = /^\d{1,15}$/.test(raw) ? Number(raw) : Number.NaN
			if (!Number.isSafeInteger(id)) throw notFound()
			const [row] = await ctx.db
				.select()
				.from(invite)
				.where(and(eq(invite.id, id), eq(invite.companyId, companyOf(principal))))
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
				await writeAudit(ctx.db, principal, {
					action: 'member.invite_revoked',
					target: `invite:${id}`,
					client: ctx.auth.clientAddress(server, request),
				})
			}
			return json(view(updated ?? row))
		},
	}),
] as const
