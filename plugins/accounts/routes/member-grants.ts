import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import { Elysia } from 'elysia'
import {
	badRequest,
	isPermission,
	json,
	AUTH_MESSAGES as MESSAGES,
	memberGrant,
	notFound,
	PERMISSION_NAMES,
	PERMISSIONS,
	type RestContext,
	readJsonObject,
	userProfile,
	writeAudit,
} from 'userbot-gateway/plugin'
import { requireCaller, requireOwner } from '../guard'
import { parseId } from './members'

/**
 * The owner-only permissions (src/auth/permissions.ts) and an owner's grants of them to members of
 * the company: list a member's grants, grant one, revoke one. Only the company's owner may (403 for
 * anyone else); a member of another company answers 404. A change reaches the member at once: the
 * profile change is announced (here and over the bus), and an open socket acts with the new grants
 * from its next command. The permissions themselves are listed for any signed-in caller.
 */
const INVALID_CHOICE = 'Select a valid choice. That choice is not one of the available choices.'

type GrantRow = { permission: string; grantedBy: number | null; createdAt: number }

const view = (g: GrantRow) => ({
	permission: g.permission,
	granted_by: g.grantedBy,
	granted_at: new Date(g.createdAt).toISOString(),
})

export const memberGrantRoutes = (ctx: RestContext) => {
	/** The member's id in the owner's company (a subquery: checked in the same statement as the write). */
	const memberOf = (companyId: number, id: number) =>
		ctx.db
			.select({ id: userProfile.id })
			.from(userProfile)
			.where(and(eq(userProfile.id, id), eq(userProfile.companyId, companyId)))

	const grantsOf = (id: number) =>
		ctx.db
			.select({
				permission: memberGrant.permission,
				grantedBy: memberGrant.grantedBy,
				createdAt: memberGrant.createdAt,
			})
			.from(memberGrant)
			.where(eq(memberGrant.userId, id))
			.orderBy(asc(memberGrant.permission))

	const requireMember = async (companyId: number, id: number) => {
		const [member] = await memberOf(companyId, id)
		if (!member) throw notFound()
	}

	return new Elysia()
		.get('/accounts/permissions/', async ({ request }) => {
			await requireCaller(ctx, request)
			return json(PERMISSION_NAMES.map((code) => ({ code, description: PERMISSIONS[code] })))
		})
		.get('/accounts/members/:id/grants/', async ({ request, params }) => {
			const owner = await requireOwner(ctx, request)
			const id = parseId(params.id)
			await requireMember(owner.companyId, id)
			return json((await grantsOf(id)).map(view))
		})
		.post(
			'/accounts/members/:id/grants/',
			async ({ request, params, server }) => {
				const owner = await requireOwner(ctx, request)
				const id = parseId(params.id)
				const body = await readJsonObject(request)
				const permission = body.permission
				if (permission === undefined || permission === null)
					throw badRequest({ permission: [MESSAGES.required] })
				if (typeof permission !== 'string') throw badRequest({ permission: [MESSAGES.notString] })
				if (!isPermission(permission)) throw badRequest({ permission: [INVALID_CHOICE] })
				await requireMember(owner.companyId, id)
				// Inserted only while the member is in the company: a removal in between leaves no grant behind.
				const inserted = await ctx.db
					.insert(memberGrant)
					.select(
						ctx.db
							.select({
								userId: userProfile.id,
								permission: sql`${permission}`.as('permission'),
								grantedBy: sql`${owner.principal.userId}`.as('granted_by'),
								createdAt: sql`${Date.now()}`.as('created_at'),
							})
							.from(userProfile)
							.where(and(eq(userProfile.id, id), eq(userProfile.companyId, owner.companyId))),
					)
					.onConflictDoNothing()
					.returning({ userId: memberGrant.userId })
				if (inserted.length > 0) {
					ctx.auth.invalidateUser(id)
					await writeAudit(ctx.db, owner.principal, {
						action: 'member.grant_added',
						target: `user:${id}`,
						detail: { permission },
						client: ctx.auth.clientAddress(server, request),
					})
				}
				// Absent only when the member left the company since the check above.
				const [grant] = (await grantsOf(id)).filter((g) => g.permission === permission)
				if (!grant) throw notFound()
				return json(view(grant), inserted.length > 0 ? 201 : 200)
			},
			{ parse: 'none' },
		)
		.delete(
			'/accounts/members/:id/grants/:permission/',
			async ({ request, params, server }) => {
				const owner = await requireOwner(ctx, request)
				const id = parseId(params.id)
				if (!isPermission(params.permission)) throw notFound()
				const deleted = await ctx.db
					.delete(memberGrant)
					.where(
						and(
							eq(memberGrant.userId, id),
							eq(memberGrant.permission, params.permission),
							inArray(memberGrant.userId, memberOf(owner.companyId, id)),
						),
					)
					.returning({ userId: memberGrant.userId })
				if (deleted.length === 0) throw notFound()
				ctx.auth.invalidateUser(id)
				await writeAudit(ctx.db, owner.principal, {
					action: 'member.grant_removed',
					target: `user:${id}`,
					detail: { permission: params.permission },
					client: ctx.auth.clientAddress(server, request),
				})
				return new Response(null, { status: 204 })
			},
			{ parse: 'none' },
		)
}
