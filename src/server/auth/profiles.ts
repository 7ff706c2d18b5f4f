import { eq, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/sqlite-core'
import type { Database } from '../../../db/client'
import { company, memberGrant, statusOnWork, userProfile } from '../../../db/schema'
import { isPermission, type Permission } from '../policy/permissions'
import type { AuthCache } from './cache'
import type { Profile } from './types'

export type { Profile } from './types'

/**
 * Whether the user may act at all: an active account, and for a member a work status that allows work (the
 * rule for non-owners in docs/rest.md#rest-login-against-a-main-server-family-b; owners work whatever their
 * status says).
 */
export const mayWork = (profile: Profile) => profile.active && (profile.isOwner || profile.allowsWork)

export interface Profiles {
	get(userId: number): Promise<Profile | null>
	/** The cached profile only (the hot path), else undefined. */
	peek(userId: number): Profile | undefined
}

export function createProfiles(db: Database, cache: AuthCache): Profiles {
	const c = alias(company, 'c')
	const byId = db
		.select({
			id: userProfile.id,
			email: userProfile.email,
			firstName: userProfile.firstName,
			lastName: userProfile.lastName,
			isOwner: userProfile.isOwner,
			active: userProfile.active,
			allowsWork: statusOnWork.allowsWork,
			statusCode: statusOnWork.code,
			statusName: statusOnWork.name,
			companyId: c.id,
			companyName: c.name,
			companyActive: c.active,
		})
		.from(userProfile)
		.innerJoin(statusOnWork, eq(statusOnWork.id, userProfile.statusId))
		.leftJoin(c, eq(c.id, userProfile.companyId))
		.where(eq(userProfile.id, sql.placeholder('id')))
		.prepare()
	const grantsOf = db
		.select({ permission: memberGrant.permission })
		.from(memberGrant)
		.where(eq(memberGrant.userId, sql.placeholder('id')))
		.prepare()

	return {
		peek: (userId) => cache.profiles.get(userId),
		async get(userId) {
			const cached = cache.profiles.get(userId)
			if (cached) return cached
			const stamp = cache.stamp()
			const [row] = await byId.execute({ id: userId })
			if (!row) return null
			// An owner holds every permission; a permission this version does not know grants nothing.
			const grants = new Set<Permission>()
			const granted = row.isOwner ? [] : await grantsOf.execute({ id: userId })
			for (const g of granted) if (isPermission(g.permission)) grants.add(g.permission)
			const profile: Profile = {
				id: row.id,
				email: row.email,
				companyId: row.companyId,
				isOwner: row.isOwner,
				active: row.active,
				allowsWork: row.allowsWork,
				companyActive: row.companyActive ?? true,
				grants,
				json: JSON.stringify({
					id: row.id,
					email: row.email,
					first_name: row.firstName,
					last_name: row.lastName,
					status: { code: row.statusCode, name: row.statusName },
					// `active` tells a family B server (logging in against this one) whether the company may work.
					company:
						row.companyId === null
							? null
							: { id: row.companyId, name: row.companyName, active: row.companyActive },
					is_owner: row.isOwner,
				}),
			}
			cache.putProfile(profile, stamp)
			return profile
		},
	}
}
