import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import {
	BEARER_OR_SESSION,
	byParam,
	companyOf,
	documentedAs,
	isPermission,
	json,
	memberGrant,
	notFound,
	PERMISSION_NAMES,
	PERMISSIONS,
	type RestContext,
	ROUTE_ERRORS,
	restRoute,
	RestSchemas as S,
	userProfile,
	writeAudit,
} from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { parseId } from './members'

/**
 * The owner-only permissions (src/server/policy/permissions.ts) and an owner's grants of them to members of
 * the company: list a member's grants, grant one, revoke one. Only the company's owner may (the
 * policy: 403 for anyone else); a member of another company answers 404. A change reaches the member at once: the
 * profile change is announced (here and over the bus), and an open socket acts with the new grants
 * from its next command. The permissions themselves are listed for any signed-in caller.
 */
type GrantRow = { permission: string; grantedBy: number | null; createdAt: number }

const view = (g: GrantRow) => ({
	permission: g.permission,
	granted_by: g.grantedBy,
	granted_at: new Date(g.createdAt).toISOString(),
})

/** The member's id in the owner's company (a subquery: checked in the same statement as the write). */
const memberOf = (ctx: RestContext, companyId: number, id: number) =>
	ctx.db
		.select({ id: userProfile.id })
		.from(userProfile)
		.where(and(eq(userProfile.id, id), eq(userProfile.companyId, companyId)))

const grantsOf = (ctx: RestContext, id: number) =>
	ctx.db
		.select({
			permission: memberGrant.permission,
			grantedBy: memberGrant.grantedBy,
			createdAt: memberGrant.createdAt,
		})
		.from(memberGrant)
		.where(eq(memberGrant.userId, id))
		.orderBy(asc(memberGrant.permission))

const requireMember = async (ctx: RestContext, companyId: number, id: number) => {
	const [member] = await memberOf(ctx, companyId, id)
	if (!member) throw notFound()
}

const ID = S.IdParams
const GRANT = v.object({
	id: S.PathId(),
	permission: documentedAs(v.custom<string>(isPermission), { type: 'string', enum: [...PERMISSION_NAMES] }),
})

export const memberGrantRoutes = [
	restRoute({
		method: 'get',
		path: '/accounts/permissions/',
		policy: { action: 'read', resource: 'self' },
		response: { 200: v.array(S.PermissionInfo), ...ROUTE_ERRORS.authed },
		detail: {
			operationId: 'listPermissions',
			summary: 'The owner-only permissions an owner may grant a member',
			tags: ['accounts'],
			security: BEARER_OR_SESSION,
		},
		handle: async () => json(PERMISSION_NAMES.map((code) => ({ code, description: PERMISSIONS[code] }))),
	}),
	restRoute({
		method: 'get',
		path: '/accounts/members/:id/grants/',
		policy: { action: 'read', resource: 'member', find: [byParam()] },
		params: ID,
		response: { 200: v.array(S.Grant), ...ROUTE_ERRORS.authed, ...ROUTE_ERRORS.notFound },
		detail: {
			operationId: 'listMemberGrants',
			summary: "A member's granted permissions (owners)",
			tags: ['accounts'],
			security: BEARER_OR_SESSION,
		},
		handle: async (ctx: RestContext, { params, principal }) => {
			const id = parseId(params.id ?? '')
			await requireMember(ctx, companyOf(principal), id)
			return json((await grantsOf(ctx, id)).map(view))
		},
	}),
	restRoute({
		method: 'post',
		path: '/accounts/members/:id/grants/',
		policy: { action: 'write', resource: 'member', find: [byParam()] },
		params: ID,
		body: S.GrantRequest,
		response: {
			201: S.Grant,
			200: S.Grant,
			...ROUTE_ERRORS.badRequest,
			...ROUTE_ERRORS.authed,
			...ROUTE_ERRORS.notFound,
		},
		detail: {
			operationId: 'grantMemberPermission',
			summary: 'Grants a member an owner-only permission (owners; 200 when it was granted already)',
			tags: ['accounts'],
			security: BEARER_OR_SESSION,
		},
		handle: async (ctx: RestContext, { body: { permission }, params, request, server, principal }) => {
			const companyId = companyOf(principal)
			const id = parseId(params.id ?? '')
			await requireMember(ctx, companyId, id)
			// Inserted only while the member is in the company: a removal in between leaves no grant behind.
			const inserted = await ctx.db
				.insert(memberGrant)
				.select(
					ctx.db
						.select({
							userId: userProfile.id,
							permission: sql`${permission}`.as('permission'),
							grantedBy: sql`${principal.userId}`.as('granted_by'),
							createdAt: sql`${Date.now()}`.as('created_at'),
						})
						.from(userProfile)
						.where(and(eq(userProfile.id, id), eq(userProfile.companyId, companyId))),
				)
				.onConflictDoNothing()
				.returning({ userId: memberGrant.userId })
			if (inserted.length > 0) {
				ctx.auth.invalidateUser(id)
				await writeAudit(ctx.db, principal, {
					action: 'member.grant_added',
					target: `user:${id}`,
					detail: { permission },
					client: ctx.auth.clientAddress(server, request),
				})
			}
			// Absent only when the member left the company since the check above.
			const [grant] = (await grantsOf(ctx, id)).filter((g) => g.permission === permission)
			if (!grant) throw notFound()
			return json(view(grant), inserted.length > 0 ? 201 : 200)
		},
	}),
	restRoute({
		method: 'delete',
		path: '/accounts/members/:id/grants/:permission/',
		policy: { action: 'write', resource: 'member', find: [byParam()], destructive: true },
		params: GRANT,
		response: { 204: v.void(), ...ROUTE_ERRORS.authed, ...ROUTE_ERRORS.notFound },
		detail: {
			operationId: 'revokeMemberPermission',
			summary: 'Revokes a granted permission (owners)',
			tags: ['accounts'],
			security: BEARER_OR_SESSION,
		},
		handle: async (ctx: RestContext, { params, request, server, principal }) => {
			const id = parseId(params.id ?? '')
			const permission = params.permission ?? ''
			if (!isPermission(permission)) throw notFound()
			const deleted = await ctx.db
				.delete(memberGrant)
				.where(
					and(
						eq(memberGrant.userId, id),
						eq(memberGrant.permission, permission),
						inArray(memberGrant.userId, memberOf(ctx, companyOf(principal), id)),
					),
				)
				.returning({ userId: memberGrant.userId })
			if (deleted.length === 0) throw notFound()
			ctx.auth.invalidateUser(id)
			await writeAudit(ctx.db, principal, {
				action: 'member.grant_removed',
				target: `user:${id}`,
				detail: { permission },
				client: ctx.auth.clientAddress(server, request),
			})
			return new Response(null, { status: 204 })
		},
	}),
] as const
