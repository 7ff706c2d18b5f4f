import { and, desc, eq, lt } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { auditLog } from '../../../db/schema'
import type { Executor } from '../auth/db-types'

/**
 * The audit log: what changed an account or a company, kept in the database for the company's owner
 * (`GET /api/audit/`). Actions are fixed words; `detail` holds ids and names, never a secret.
 */
export const AUDIT_ACTIONS = [
	'key.created',
	'key.revoked',
	'member.invited',
	'member.invite_revoked',
	'member.joined',
	'member.removed',
	'member.status_changed',
	'member.grant_added',
	'member.grant_removed',
	'password.reset',
	'session.terminated',
	'sessions.terminated',
	'twofa.changed',
	'twofa.disabled',
	'twofa.recovered',
	'twofa.recovery_email_changed',
	'twofa.recovery_email_confirmed',
	'account.ttl_changed',
	'chat.ownership_transferred',
	'webhook.created',
	'webhook.updated',
	'webhook.deleted',
	'webhook.secret_rotated',
	'userbot.created',
	'userbot.deleted',
	'userbot.proxy_set',
	'userbot.proxy_removed',
	// Issue 31: the userbot card's actions.
	'userbot.renamed',
	'userbot.logged_out',
	'userbot.restarted',
	// Issue 46: any TDLib method (td_invoke), with the method's name.
	'td.invoked',
] as const

export type AuditAction = (typeof AUDIT_ACTIONS)[number]

export type AuditDetail = Record<string, string | number | boolean | null>

export interface AuditEntry {
	action: AuditAction
	/** What it was done to: `key:3`, `user:12`, `userbot:7`, `webhook:2`. */
	target?: string
	detail?: AuditDetail
	/** The client's address the change came from (after `TRUSTED_PROXIES`). */
	client?: string
}

/** Who did it: a principal (a user, or a user through an API key), or a user acting on themself. */
export interface AuditActor {
	companyId: number | null
	userId: number | null
	key?: { id: number } | null
}

/** Writes one line for what `actor` did in its company (inside `tx` when given). */
export async function writeAudit(db: Executor, actor: AuditActor, entry: AuditEntry): Promise<void> {
	await db.insert(auditLog).values({
		companyId: actor.companyId,
		userId: actor.userId,
		keyId: actor.key?.id ?? null,
		action: entry.action,
		target: entry.target ?? null,
		detail: entry.detail ? JSON.stringify(entry.detail) : null,
		client: entry.client ?? null,
	})
}

export interface AuditView {
	id: number
	at: string
	action: string
	user_id: number | null
	key_id: number | null
	target: string | null
	detail: unknown
	client: string | null
}

/** The company's lines, newest first; `before` (an id) pages back. */
export async function readAudit(
	db: Database,
	companyId: number,
	limit: number,
	before?: number,
): Promise<AuditView[]> {
	const rows = await db
		.select()
		.from(auditLog)
		.where(
			before === undefined
				? eq(auditLog.companyId, companyId)
				: and(eq(auditLog.companyId, companyId), lt(auditLog.id, before)),
		)
		.orderBy(desc(auditLog.id))
		.limit(limit)
	return rows.map((r) => ({
		id: r.id,
		at: new Date(r.at).toISOString(),
		action: r.action,
		user_id: r.userId,
		key_id: r.keyId,
		target: r.target,
		detail: r.detail === null ? null : JSON.parse(r.detail),
		client: r.client,
	}))
}
