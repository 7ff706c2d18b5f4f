import { and, eq, gt } from 'drizzle-orm'
import {
	badRequest,
	company,
	HttpError,
	invite,
	AUTH_MESSAGES as MESSAGES,
	normalizeEmail,
	normalizeText,
	type RestContext,
	sha256,
	statusOnWork,
	userProfile,
	validatePassword,
	writeAudit,
} from 'userbot-gateway/plugin'

/**
 * Creates an account. With an invite token the user joins the inviting company (not owner) and
 * the invite is accepted; without, the user owns a new company of their own. Status Active.
 * Everything in one transaction: a failure leaves no half-made account behind.
 */
export interface Registration {
	email: string
	password: string
	first_name: string
	last_name: string
	invite?: string
	/** The client's address, for the audit line of a member who joins by invite. */
	client?: string
}

export async function emailTaken(ctx: RestContext, email: string): Promise<boolean> {
	const [row] = await ctx.db
		.select({ id: userProfile.id })
		.from(userProfile)
		.where(eq(userProfile.email, email))
	return row !== undefined
}

export async function registerUser(ctx: RestContext, input: Registration) {
	const email = normalizeEmail(input.email)
	const firstName = normalizeText(input.first_name)
	const lastName = normalizeText(input.last_name)
	await assertRegistrable(ctx, email, firstName, lastName, input.password)
	const passwordHash = await ctx.auth.hasher.hash(input.password)
	const [active] = await ctx.db
		.select({ id: statusOnWork.id })
		.from(statusOnWork)
		.where(eq(statusOnWork.code, 'active'))
	if (!active) throw new Error('work status "active" is not seeded')
	const invalidInvite = () => badRequest({ invite: [MESSAGES.invalidInvite] })

	try {
		return await ctx.db.transaction(async (tx) => {
			let companyId: number | null = null
			let inviteId: number | null = null
			if (input.invite !== undefined) {
				const found = await pendingInvite(tx, input.invite, email)
				if (!found) throw invalidInvite()
				companyId = found.companyId
				inviteId = found.id
			}
			const [user] = await tx
				.insert(userProfile)
				.values({
					email,
					passwordHash,
					firstName,
					lastName,
					statusId: active.id,
					companyId,
					isOwner: false,
				})
				.returning({ id: userProfile.id })
			if (!user) throw new Error('insert returned no row')
			if (inviteId !== null) {
				const accepted = await tx
					.update(invite)
					.set({ state: 'accepted', acceptedBy: user.id })
					.where(and(eq(invite.id, inviteId), eq(invite.state, 'pending')))
					.returning({ id: invite.id })
				if (accepted.length === 0) throw invalidInvite()
				await writeAudit(
					tx,
					{ companyId, userId: user.id },
					{
						action: 'member.joined',
						target: `user:${user.id}`,
						detail: { invite: inviteId },
						client: input.client,
					},
				)
			} else await foundCompany(tx, user.id, firstName ? `${firstName}'s company` : email)
			return { id: user.id, email, first_name: firstName, last_name: lastName }
		})
	} catch (err) {
		if (err instanceof HttpError) throw err
		// Two registrations of one address at once: the unique index decides.
		if (err instanceof Error && /UNIQUE/i.test(`${err.message} ${String(err.cause ?? '')}`)) {
			throw badRequest({ email: [MESSAGES.emailTaken] })
		}
		throw err
	}
}

type Transaction = Parameters<Parameters<RestContext['db']['transaction']>[0]>[0]

/** The address free and the password good enough, or a 400 naming every field that is not. */
async function assertRegistrable(
	ctx: RestContext,
	email: string,
	firstName: string,
	lastName: string,
	password: string,
): Promise<void> {
	const errors: Record<string, string[]> = {}
	if (await emailTaken(ctx, email)) errors.email = [MESSAGES.emailTaken]
	const problems = validatePassword(password, { email, first_name: firstName, last_name: lastName })
	if (problems.length > 0) errors.password = problems
	if (Object.keys(errors).length > 0) throw badRequest(errors)
}

/** The pending, unexpired invite of `token`, if it is for `email` (or for anyone). */
async function pendingInvite(tx: Transaction, token: string, email: string) {
	const [found] = await tx
		.select()
		.from(invite)
		.where(
			and(eq(invite.tokenHash, sha256(token)), eq(invite.state, 'pending'), gt(invite.expiresAt, Date.now())),
		)
	return found && (found.email === null || found.email === email) ? found : undefined
}

/** A user who came without an invite founds a company of their own and owns it. */
async function foundCompany(tx: Transaction, userId: number, name: string): Promise<void> {
	const [own] = await tx.insert(company).values({ name, ownerId: userId }).returning({ id: company.id })
	if (!own) throw new Error('insert returned no row')
	await tx.update(userProfile).set({ companyId: own.id, isOwner: true }).where(eq(userProfile.id, userId))
}
