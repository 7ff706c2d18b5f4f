import type { AuditLine } from '../../rest-types'
import { quoted } from './ui'

/**
 * One audit line (docs/operator.md#audit-log) as a sentence: who did what to what. Names come from
 * what the page knows (members, userbots, keys, work statuses, permissions); what it does not know
 * any more (a removed member, a deleted userbot) is named by its number.
 */
export interface Names {
	me: number | null
	users: ReadonlyMap<number, string>
	userbots: ReadonlyMap<number, string>
	keys: ReadonlyMap<number, string>
	statuses: ReadonlyMap<string, string>
	permissions: ReadonlyMap<string, string>
}

type Detail = Record<string, unknown>
type Say = (target: string, d: Detail, n: Names) => string

const SENTENCES: Record<string, Say> = {
	'key.created': (_t, d) => `created the API key ${quoted(d.name)}`,
	'key.revoked': (_t, d) => `revoked the API key ${quoted(d.name)}`,
	'member.invited': () => 'created an invite',
	'member.invite_revoked': () => 'revoked an invite',
	'member.joined': () => 'joined the company with an invite',
	'member.removed': (t) => `removed ${t} from the company`,
	'member.status_changed': (t, d, n) =>
		`set the work status of ${t} to ${quoted(n.statuses.get(String(d.status)) ?? d.status)}`,
	'member.grant_added': (t, d, n) => `allowed ${t} to ${permission(d, n)}`,
	'member.grant_removed': (t, d, n) => `no longer allows ${t} to ${permission(d, n)}`,
	'password.reset': () => 'set a new password with a reset link',
	'session.terminated': (t) => `ended a Telegram session of ${t}`,
	'sessions.terminated': (t) => `ended every other Telegram session of ${t}`,
	'twofa.changed': (t) => `changed the two-step verification of ${t}`,
	'twofa.disabled': (t) => `turned off the two-step verification password of ${t}`,
	'twofa.recovered': (t) => `recovered the two-step verification password of ${t}`,
	'twofa.recovery_email_changed': (t) => `changed the recovery e-mail of ${t}`,
	'twofa.recovery_email_confirmed': (t) => `confirmed the recovery e-mail of ${t}`,
	'account.ttl_changed': (t, d) =>
		`set the Telegram account of ${t} to be deleted after ${d.days ?? 'some'} days without use`,
	'chat.ownership_transferred': (t) => `handed over the ownership of a chat of ${t}`,
	'webhook.created': (t) => `added ${t}`,
	'webhook.updated': (t, d) =>
		`changed ${t}${Array.isArray(d.fields) && d.fields.length ? ` (${d.fields.join(', ')})` : ''}`,
	'webhook.deleted': (t) => `deleted ${t}`,
	'webhook.secret_rotated': (t) => `made a new signing secret for ${t}`,
	'userbot.created': (t) => `added ${t}`,
	'userbot.deleted': (t) => `deleted ${t}`,
	'userbot.proxy_set': (t, d) => `set ${d.type ? `a ${String(d.type).toUpperCase()} ` : 'a '}proxy on ${t}`,
	'userbot.proxy_removed': (t) => `removed the proxy of ${t}`,
	'userbot.renamed': (t, d) => `renamed ${t} to ${quoted(d.name)}`,
	'userbot.logged_out': (t) => `logged ${t} out of Telegram`,
	'userbot.restarted': (t) => `restarted the Telegram client of ${t}`,
}

const permission = (d: Detail, n: Names) => {
	const code = String(d.permission ?? '')
	const words = n.permissions.get(code)
	return words ? words.charAt(0).toLowerCase() + words.slice(1).replace(/\.$/, '') : code.replace(/_/g, ' ')
}

/** `user:12`, `userbot:7`, `webhook:2` as a name. */
function targetName(target: string | null, d: Detail, n: Names): string {
	const [kind = '', raw = ''] = (target ?? '').split(':')
	const id = Number(raw)
	switch (kind) {
		case 'user':
			return id === n.me ? 'yourself' : (n.users.get(id) ?? `a former member (#${id})`)
		case 'userbot': {
			const name = n.userbots.get(id) ?? (typeof d.name === 'string' ? d.name : null)
			return name ? `the userbot ${quoted(name)}` : `the userbot #${id}`
		}
		case 'webhook':
			return `the webhook endpoint #${id}`
		case 'key':
			return `the API key #${id}`
		case 'invite':
			return `the invite #${id}`
		default:
			return 'something'
	}
}

/** Who did it: “You”, a member, or a former one; through which key, if any. */
export function actorName(line: AuditLine, n: Names): string {
	const who =
		line.user_id === null
			? 'Someone'
			: line.user_id === n.me
				? 'You'
				: (n.users.get(line.user_id) ?? `A former member (#${line.user_id})`)
	if (line.key_id === null) return who
	const key = n.keys.get(line.key_id)
	return `${who}, through the API key ${key ? quoted(key) : `#${line.key_id}`},`
}

/** What was done, as the rest of the sentence after the actor. */
export function actionWords(line: AuditLine, n: Names): string {
	const d = line.detail && typeof line.detail === 'object' ? (line.detail as Detail) : {}
	const say = SENTENCES[line.action]
	return say ? say(targetName(line.target, d, n), d, n) : line.action.replace(/[._]+/g, ' ')
}
