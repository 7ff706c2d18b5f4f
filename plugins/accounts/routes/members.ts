import { and, asc, eq } from 'drizzle-orm'
import {
	BEARER_OR_SESSION,
	badRequest,
	byParam,
	companyOf,
	HttpError,
	json,
	memberGrant,
	notFound,
	OF_COMPANY,
	type RestContext,
	ROUTE_ERRORS,
	restRoute,
	RestSchemas as S,
	statusOnWork,
	userProfile,
	writeAudit,
} from 'userbot-gateway/plugin'
import * as v from 'valibot'

/**
 * The company's members and their work statuses, for its owner (the policy: 403 for anyone else): list them, set
 * a member's status by its code, and remove a member from the company. A member of another company
 * answers 404, as if it did not exist. The work statuses themselves are listed for any signed-in
 * caller: they are the deployment's reference table, nothing about a company.
 *
 * A status that does not allow work takes effect at once: the member's open sockets are told (the
 * profile change is announced, here and over the bus) and close with 1008, and every later request,
 * login, refresh and command is refused (src/server/auth). Removal ends the member's sessions and tokens
 * too; their userbots stay with the company.
 */

const memberColumns = {
	id: userProfile.id,
	email: userProfile.email,
	firstName: userProfile.firstName,
	lastName: userProfile.lastName,
	isOwner: userProfile.isOwner,
	active: userProfile.active,
	statusCode: statusOnWork.code,
	statusName: statusOnWork.name,
	allowsWork: statusOnWork.allowsWork,
}

type MemberRow = {
	id: number
	email: string
	firstName: string
	lastName: string
	isOwner: boolean
	active: boolean
	statusCode: string
	statusName: string
	allowsWork: boolean
}

const view = (r: MemberRow) => ({
	id: r.id,
	email: r.email,
	first_name: r.firstName,
	last_name: r.lastName,
	is_owner: r.isOwner,
	active: r.active,
	status: { code: r.statusCode, name: r.statusName, allows_work: r.allowsWork },
})

const ownerNotRemovable = () =>
	new HttpError(400, { detail: 'An owner cannot be removed from the company.', code: 'owner_not_removable' })

export const parseId = (raw: string) => {
	const id = /^\d{1,15}$/.test(raw) ? Number(raw) : Number.NaN
	if (!Number.isSafeInteger(id)) throw notFound()
	return id
}

const members = (ctx: RestContext, companyId: number, id?: number) =>
	ctx.db
		.select(memberColumns)
		.from(userProfile)
		.innerJoin(statusOnWork, eq(statusOnWork.id, userProfile.statusId))
		.where(
			id === undefined
				? eq(userProfile.companyId, companyId)
				: and(eq(userProfile.companyId, companyId), eq(userProfile.id, id)),
		)
		.orderBy(asc(userProfile.id))

const ID = S.IdParams

export const memberRoutes = [
	restRoute({
		method: 'get',
		path: '/accounts/statuses/',
		policy: { action: 'read', resource: 'self' },
		response: { 200: v.array(S.WorkStatus), ...ROUTE_ERRORS.authed },
		detail: {
			operationId: 'listWorkStatuses',
			summary: 'The work statuses of this deployment',
			tags: ['accounts'],
			security: BEARER_OR_SESSION,
		},
		handle: async (ctx: RestContext) => {
			const rows = await ctx.db.select().from(statusOnWork).orderBy(asc(statusOnWork.id))
			return json(rows.map((s) => ({ code: s.code, name: s.name, allows_work: s.allowsWork })))
		},
	}),
	restRoute({
		method: 'get',
		path: '/accounts/members/',
		policy: { action: 'read', resource: 'member', find: [OF_COMPANY] },
		response: { 200: v.array(S.Member), ...ROUTE_ERRORS.authed },
		detail: {
			operationId: 'listMembers',
			summary: "The company's members with their work statuses (owners)",
			tags: ['accounts'],
			security: BEARER_OR_SESSION,
		},
		handle: async (ctx: RestContext, { principal }) =>
			json((await members(ctx, companyOf(principal))).map(view)),
	}),
	restRoute({
		method: 'post',
		path: '/accounts/members/:id/status/',
		policy: { action: 'write', resource: 'member', find: [byParam()] },
		params: ID,
		body: S.StatusChange,
		response: { 200: S.Member, ...ROUTE_ERRORS.badRequest, ...ROUTE_ERRORS.authed, ...ROUTE_ERRORS.notFound },
		detail: {
			operationId: 'setMemberStatus',
			summary: "Sets a member's work status by its code (owners)",
			tags: ['accounts'],
			security: BEARER_OR_SESSION,
		},
		handle: async (ctx: RestContext, { body, params, request, server, principal }) => {
			const companyId = companyOf(principal)
			const id = parseId(params.id ?? '')
			const code = body.status
			const [status] = await ctx.db.select().from(statusOnWork).where(eq(statusOnWork.code, code))
			if (!status) throw badRequest({ status: [S.INVALID_CHOICE] })
			// The company is in the update's own condition: a member who left in between is not touched.
			const updated = await ctx.db
				.update(userProfile)
				.set({ statusId: status.id, updatedAt: Date.now() })
				.where(and(eq(userProfile.id, id), eq(userProfile.companyId, companyId)))
				.returning({ id: userProfile.id })
			if (updated.length === 0) throw notFound()
			await writeAudit(ctx.db, principal, {
				action: 'member.status_changed',
				target: `user:${id}`,
				detail: { status: code },
				client: ctx.auth.clientAddress(server, request),
			})
			// me/ answers from the cached profile: it must show the new status at once.
			ctx.auth.invalidateUser(id)
			const [row] = await members(ctx, companyId, id)
			if (!row) throw notFound()
			return json(view(row))
		},
	}),
	restRoute({
		method: 'delete',
		path: '/accounts/members/:id/',
		policy: { action: 'write', resource: 'member', find: [byParam()], destructive: true },
		params: ID,
		response: { 204: v.void(), 400: S.Detail, ...ROUTE_ERRORS.authed, ...ROUTE_ERRORS.notFound },
		detail: {
			operationId: 'removeMember',
			summary: 'Removes a member from the company, ending their sessions; their userbots stay (owners)',
			tags: ['accounts'],
			security: BEARER_OR_SESSION,
		},
		handle: async (ctx: RestContext, { params, request, server, principal }) => {
			const outcome = await removeMember(ctx, companyOf(principal), parseId(params.id ?? ''))
			if (outcome === 'absent') throw notFound()
			if (outcome === 'owner') throw ownerNotRemovable()
			await writeAudit(ctx.db, principal, {
				action: 'member.removed',
				target: `user:${outcome.id}`,
				client: ctx.auth.clientAddress(server, request),
			})
			ctx.log.info('member removed', { userId: outcome.id, by: principal.userId })
			return new Response(null, { status: 204 })
		},
	}),
] as const

/**
 * Takes the member out of the company in one transaction: no company, no owner flag, the `dismissed`
 * status, no grants, every session and token family revoked. Then the cache forgets the user and the
 * revocation is announced, which closes the member's sockets (here and on other gateways).
 */
async function removeMember(
	ctx: RestContext,
	companyId: number,
	id: number,
): Promise<'absent' | 'owner' | { id: number }> {
	const outcome = await ctx.db.transaction(async (tx) => {
		const [target] = await tx
			.select({ isOwner: userProfile.isOwner })
			.from(userProfile)
			.where(and(eq(userProfile.id, id), eq(userProfile.companyId, companyId)))
		if (!target) return 'absent' as const
		if (target.isOwner) return 'owner' as const
		const [dismissed] = await tx
			.select({ id: statusOnWork.id })
			.from(statusOnWork)
			.where(eq(statusOnWork.code, 'dismissed'))
		if (!dismissed) throw new Error('the seeded work status dismissed is missing')
		await tx
			.update(userProfile)
			.set({ companyId: null, isOwner: false, statusId: dismissed.id, updatedAt: Date.now() })
			.where(eq(userProfile.id, id))
		await tx.delete(memberGrant).where(eq(memberGrant.userId, id))
		await ctx.auth.revokeUser(id, tx)
		return { id }
	})
	if (typeof outcome === 'object') ctx.auth.invalidateUser(id, true)
	return outcome
}
