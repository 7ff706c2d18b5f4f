import type { Refusal } from './errors'
import type { LocalAccount } from './sync-profile'

/**
 * The two rule sets of docs/rest.md#rest-login-against-a-main-server-family-b, applied to the profile just
 * synchronised from the main server:
 * - owners: the account is active and owns a company that is active;
 * - non-owners: the account is active, belongs to an active company, and its work status allows
 *   work (Active does; On Leave and Dismissed do not).
 * Returns the first reason to refuse, in that order, or null.
 */
export function refusalOf(account: LocalAccount): Refusal | null {
	if (!account.active) return 'account_inactive'
	if (!account.company) return 'no_company'
	if (!account.company.active) return 'company_inactive'
	if (!account.isOwner && !account.statusAllowsWork) return 'status_not_allowed'
	return null
}
