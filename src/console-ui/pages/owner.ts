/**
 * The owner's company pages (API keys, members, invites, audit log), each in `company/`; the
 * Webhooks page is `webhooks.ts`.
 */
export { auditPage } from './company/audit'
export { invitesPage } from './company/invites'
export { keysPage } from './company/keys'
export { membersPage } from './company/members'
