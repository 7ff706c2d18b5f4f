import { eq } from 'drizzle-orm'
import { invite, type Locators, type RestContext, userProfile } from 'userbot-gateway/plugin'

/**
 * Where the accounts routes' resources belong, for their guard (docs/policy.md): a member by its
 * user id, an invite by its id. A user outside every company (a removed member) is nobody's member.
 */
export const accountLocators = (ctx: RestContext): Locators => ({
	member: async (id) => {
		const [row] = await ctx.db
			.select({ companyId: userProfile.companyId })
			.from(userProfile)
			.where(eq(userProfile.id, id))
		return row?.companyId != null ? { companyId: row.companyId } : null
	},
	invite: async (id) => {
		const [row] = await ctx.db.select({ companyId: invite.companyId }).from(invite).where(eq(invite.id, id))
		return row ? { companyId: row.companyId } : null
	},
})
