import { GatewayErrors as E } from '../../common/wire/errors'
import type { AppContext } from '../context'
import { can, type Found } from '../policy/can'
import { FRAME_USERBOT, type PolicyEntry } from '../policy/entry'
import type { Principal } from '../policy/principal'

/**
 * The WebSocket face of the policy (docs/policy.md): the userbot a frame names, found in the cached
 * directory, and `can`'s refusal in the protocol's words. Not there for this principal (another
 * company's, out of a key's reach, or none) is `userbot not found`; a key's scope or a member's
 * missing grant is `permission denied`. (A principal that may not work never gets here: its socket
 * is closed by the credential check before each frame.)
 */
export async function userbotFound(ctx: AppContext, userbotId: number): Promise<Found> {
	const record = await ctx.userbots.lookup(userbotId)
	return { finder: FRAME_USERBOT, companyId: record?.companyId ?? null, userbots: [userbotId] }
}

/** The wire string of the refusal, or null when the principal may. */
export function wireRefusal(principal: Principal, policy: PolicyEntry, found: Found): string | null {
	const decision = can(principal, policy, [found])
	if (decision.ok) return null
	return decision.refusal === 'not_found' ? E.USERBOT_NOT_FOUND : E.PERMISSION_DENIED
}
