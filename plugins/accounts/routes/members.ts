import { and, asc, eq } from 'drizzle-orm'
import { Elysia } from 'elysia'
import { statusOnWork, userProfile } from '../../../db/schema'
import type { AuthCore } from '../../../src/auth'
import { MESSAGES } from '../../../src/auth/errors'
import { json } from '../../../src/auth/respond'
import { readJsonObject } from '../../../src/http/body'
import { badRequest, notFound } from '../../../src/http/errors'
import { requireCaller, requireOwner } from '../guard'

/**
 * The company's members and their work statuses, for its owner (403 for anyone else): list them, and
 * set a member's status by its code. A member of another company answers 404, as if it did not exist.
 * The work statuses themselves are listed for any signed-in caller: they are the deployment's
 * reference table, nothing about a company.
 */
const INVALID_CHOICE = 'Select a valid choice. That choice is not one of the available choices.'

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

const parseId = (raw: string) => {
	const id = /^\d{1,15}$/.test(raw) ? Number(raw) : Number.NaN
	if (!Number.isSafeInteger(id)) throw notFound()
	return id
}

export const memberRoutes = (core: AuthCore) => {
	const members = (companyId: number, id?: number) =>
		core.db
			.select(memberColumns)
			.from(userProfile)
			.innerJoin(statusOnWork, eq(statusOnWork.id, userProfile.statusId))
			.where(
				id === undefined
					? eq(userProfile.companyId, companyId)
					: and(eq(userProfile.companyId, companyId), eq(userProfile.id, id)),
			)
			.orderBy(asc(userProfile.id))

	return new Elysia()
		.get('/accounts/statuses/', async ({ request }) => {
			await requireCaller(core, request)
			const rows = await core.db.select().from(statusOnWork).orderBy(asc(statusOnWork.id))
			return json(rows.map((s) => ({ code: s.code, name: s.name, allows_work: s.allowsWork })))
		})
		.get('/accounts/members/', async ({ request }) => {
			const owner = await requireOwner(core, request)
			return json((await members(owner.companyId)).map(view))
		})
		.post(
			'/accounts/members/:id/status/',
			async ({ request, params }) => {
				const owner = await requireOwner(core, request)
				const id = parseId(params.id)
				const body = await readJsonObject(request)
				const code = body.status
				if (code === undefined || code === null) throw badRequest({ status: [MESSAGES.required] })
				if (typeof code !== 'string') throw badRequest({ status: [MESSAGES.notString] })
				if (code.length > 64) throw badRequest({ status: [INVALID_CHOICE] })
				const [status] = await core.db.select().from(statusOnWork).where(eq(statusOnWork.code, code))
				if (!status) throw badRequest({ status: [INVALID_CHOICE] })
				// The company is in the update's own condition: a member who left in between is not touched.
				const updated = await core.db
					.update(userProfile)
					.set({ statusId: status.id, updatedAt: Date.now() })
					.where(and(eq(userProfile.id, id), eq(userProfile.companyId, owner.companyId)))
					.returning({ id: userProfile.id })
				if (updated.length === 0) throw notFound()
				// me/ answers from the cached profile: it must show the new status at once.
				core.invalidateUser(id)
				const [row] = await members(owner.companyId, id)
				if (!row) throw notFound()
				return json(view(row))
			},
			{ parse: 'none' },
		)
}
