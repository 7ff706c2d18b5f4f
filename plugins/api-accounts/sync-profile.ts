import { and, eq, isNull, ne, or } from 'drizzle-orm'
import {
	company,
	type Executor,
	type RestContext,
	randomToken,
	statusOnWork,
	userProfile,
} from 'userbot-gateway/plugin'
import { refused } from './errors'
import type { MainProfile } from './main-profile'

/**
 * Creates or updates the local profile from what the main server said
 * (docs/rest.md#rest-login-against-a-main-server-family-b): names, e-mail, work status (by its code), company
 * (one local company per main company, by `main_server_id`), owner flag and main-server id. A new account
 * gets a password hash of random bytes nobody knows: family A's login and token views never accept it (they
 * refuse linked accounts anyway) and it costs them the same hashing as any other failure. An account of this
 * server that holds the e-mail but is not linked to this main account is never merged into it
 * (`account_conflict`).
 */
export interface LocalAccount {
	id: number
	email: string
	/** Local switch: an administrator of this server can turn the account off. */
	active: boolean
	isOwner: boolean
	company: { active: boolean } | null
	statusAllowsWork: boolean
}

export async function syncProfile(ctx: RestContext, main: MainProfile): Promise<LocalAccount> {
	const [linked] = await ctx.db
		.select({ id: userProfile.id })
		.from(userProfile)
		.where(eq(userProfile.mainServerId, main.id))
	// Hashed outside the transaction: the write turn is not held for an argon2id run.
	const unusableHash = linked ? null : await ctx.auth.hasher.hash(randomToken(32))
	const run = () => ctx.db.transaction((tx) => write(tx, main, unusableHash, ctx))
	let synced: Synced
	try {
		synced = await run()
	} catch (err) {
		// Two first logins of one account (or two accounts of one new company) raced: the unique
		// index decided, and the second attempt finds the row the first made.
		if (!isUniqueViolation(err)) throw err
		synced = await run()
	}
	ctx.auth.invalidateUser(synced.account.id)
	for (const member of synced.companyMembersToRefresh) ctx.auth.invalidateUser(member)
	return synced.account
}

interface Synced {
	account: LocalAccount
	/** Members whose cached profile shows the company's old name. */
	companyMembersToRefresh: number[]
}

async function write(
	tx: Executor,
	main: MainProfile,
	unusableHash: string | null,
	ctx: RestContext,
): Promise<Synced> {
	const status = await localStatus(tx, main.status)
	const local = main.company ? await localCompany(tx, main.company) : null
	const [byMain] = await tx
		.select({ id: userProfile.id })
		.from(userProfile)
		.where(eq(userProfile.mainServerId, main.id))
	const [byEmail] = await tx
		.select({ id: userProfile.id })
		.from(userProfile)
		.where(eq(userProfile.email, main.email))
	if (byEmail && byEmail.id !== byMain?.id) throw refused('account_conflict')
	const fields = {
		email: main.email,
		firstName: main.firstName,
		lastName: main.lastName,
		statusId: status.id,
		companyId: local?.id ?? null,
		isOwner: main.isOwner,
	}
	const [user] = byMain
		? await tx
				.update(userProfile)
				.set({ ...fields, updatedAt: Date.now() })
				.where(eq(userProfile.id, byMain.id))
				.returning({ id: userProfile.id, active: userProfile.active })
		: await tx
				.insert(userProfile)
				.values({
					...fields,
					mainServerId: main.id,
					passwordHash: unusableHash ?? (await ctx.auth.hasher.hash(randomToken(32))),
				})
				.returning({ id: userProfile.id, active: userProfile.active })
	if (!user) throw new Error('profile write returned no row')
	if (main.isOwner && local) {
		await tx
			.update(company)
			.set({ ownerId: user.id })
			.where(and(eq(company.id, local.id), or(isNull(company.ownerId), ne(company.ownerId, user.id))))
	}
	const members =
		local?.changed === true
			? await tx.select({ id: userProfile.id }).from(userProfile).where(eq(userProfile.companyId, local.id))
			: []
	return {
		account: {
			id: user.id,
			email: main.email,
			active: user.active,
			isOwner: main.isOwner,
			company: local ? { active: local.active } : null,
			statusAllowsWork: status.allowsWork,
		},
		companyMembersToRefresh: members.map((m) => m.id).filter((id) => id !== user.id),
	}
}

/** The local work status of that code; one the main has and this server lacks is added, not allowing work. */
async function localStatus(tx: Executor, main: MainProfile['status']) {
	const byCode = () => tx.select().from(statusOnWork).where(eq(statusOnWork.code, main.code))
	const [found] = await byCode()
	if (found) return found
	await tx
		.insert(statusOnWork)
		.values({ code: main.code, name: main.name, allowsWork: false })
		.onConflictDoNothing()
	const [made] = await byCode()
	if (!made) throw new Error('work status insert returned no row')
	return made
}

/** The local company standing for the main's: its name and active flag follow the main. */
async function localCompany(tx: Executor, main: NonNullable<MainProfile['company']>) {
	const [found] = await tx.select().from(company).where(eq(company.mainServerId, main.id))
	if (!found) {
		const [made] = await tx
			.insert(company)
			.values({ name: main.name, active: main.active, mainServerId: main.id })
			.returning({ id: company.id })
		if (!made) throw new Error('company insert returned no row')
		return { id: made.id, active: main.active, changed: false }
	}
	const changed = found.name !== main.name || found.active !== main.active
	if (changed) {
		await tx.update(company).set({ name: main.name, active: main.active }).where(eq(company.id, found.id))
	}
	return { id: found.id, active: main.active, changed }
}

function isUniqueViolation(err: unknown): boolean {
	return err instanceof Error && /UNIQUE/i.test(`${err.message} ${String(err.cause ?? '')}`)
}
