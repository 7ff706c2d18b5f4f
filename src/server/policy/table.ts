import { GatewayErrors as E } from '../../common/wire/errors'
import { can, type Decision } from './can'
import { CHANNEL_POLICY, type Finder, type PolicyEntry, SUBSCRIBE_POLICY } from './entry'
import { foundOf, PRINCIPAL_KINDS, type PrincipalKind, principalOf, type Role, rolesOf } from './kinds'

/**
 * The policy table of docs/policy.md, generated from the app's own definitions (`npm run docs`): each
 * operation the app serves (every route's `policy`, every command's, the connection's frames), each
 * with `can`'s answer for every kind of caller on each resource it is tried on. The matrix test
 * (test/policy/matrix.test.ts) drives the real app through every cell and compares.
 */

export interface Operation {
	/** `rest`: a route (the upgrade of `/ws` included); `ws`: a frame on the command channel. */
	face: 'rest' | 'ws'
	/** `GET /api/userbots/:id/`, or a command's wire name. */
	name: string
	entry: PolicyEntry
}

/** What the app's definitions are read from: its routes (with their hooks) and its command registry. */
export interface Served {
	routes: readonly { method: string; path: string; hooks?: unknown }[]
	commands: Iterable<{ command: { name: string }; policy: PolicyEntry }>
}

/**
 * Every operation the app serves, in its order: the routes (not the catch-all answering 405 and
 * OPTIONS for a path's other methods, which runs nothing), then the frames, then the commands.
 */
export function operationsOf(app: Served): Operation[] {
	const rest = app.routes
		.filter((r) => r.method !== 'ALL')
		.map((r): Operation => {
			const entry = (r.hooks as { policy?: PolicyEntry } | undefined)?.policy
			if (!entry) throw new Error(`route ${r.method} ${r.path} has no policy entry`)
			return { face: 'rest', name: `${r.method} ${r.path}`, entry }
		})
	const frames: Operation[] = ['subscribe', 'unsubscribe'].map((name) => ({
		face: 'ws',
		name,
		entry: SUBSCRIBE_POLICY,
	}))
	const commands = [...app.commands].map(
		({ command, policy }): Operation => ({ face: 'ws', name: command.name, entry: policy }),
	)
	return [...rest, ...(commands.length > 0 ? frames : []), ...commands]
}

/** A refusal as the table writes it; the faces' own words are in docs/policy.md#the-faces. */
const REST_CODES: Record<string, string> = {
	unauthenticated: '401',
	status_not_allowed: '403s',
	company_inactive: '403c',
	key_scope: '403k',
	permission_denied: '403p',
	not_found: '404',
}

function restCode(decision: Decision): string {
	if (decision.ok) return '✓'
	if (decision.refusal === 'not_found' && decision.finder?.from === 'body') return '400'
	return REST_CODES[decision.refusal] ?? '?'
}

function wsCode(decision: Decision): string {
	if (decision.ok) return '✓'
	return decision.refusal === 'not_found' ? 'nf' : 'pd'
}

/** `can`'s answer for one kind of caller on one role's resource (or none). */
function decide(entry: PolicyEntry, kind: PrincipalKind, role: Role | undefined): Decision {
	const principal = principalOf(kind)
	const finders = (entry.find ?? []).filter((f: Finder) => f.from !== 'company')
	// A token names its userbot whatever the role: found even where the operation is tried once.
	const found = finders.flatMap((f) =>
		role
			? [foundOf(entry, f, role, principal)]
			: f.from === 'token'
				? [foundOf(entry, f, 'mine', principal)]
				: [],
	)
	return can(principal, entry, found)
}

/**
 * The cells of one operation for one kind of caller: one per role it is tried on, or one. A frame on
 * the channel is answered by the upgrade first (a caller it refuses has no socket to send it on).
 */
export function cellsOf(op: Operation, kind: PrincipalKind): string[] {
	const roles: readonly (Role | undefined)[] = rolesOf(op.entry).length ? rolesOf(op.entry) : [undefined]
	if (op.face === 'ws') {
		const channel = decide(CHANNEL_POLICY, kind, undefined)
		if (!channel.ok) return roles.map(() => restCode(channel))
		return roles.map((role) => wsCode(decide(op.entry, kind, role)))
	}
	return roles.map((role) => restCode(decide(op.entry, kind, role)))
}

const findText = (f: Finder) =>
	f.from === 'company'
		? 'company'
		: f.from === 'param'
			? `path \`:${f.name}\``
			: f.from === 'frame'
				? `frame \`${f.field}\``
				: f.from === 'token'
					? `token \`:${f.name}\``
					: `body \`${f.field}\``

/** The table's size: operations, kinds of caller, cells. */
export function tableSize(ops: readonly Operation[]) {
	const cells = ops.reduce((n, op) => n + Math.max(1, rolesOf(op.entry).length) * PRINCIPAL_KINDS.length, 0)
	return { operations: ops.length, kinds: PRINCIPAL_KINDS.length, cells }
}

/** The generated part of docs/policy.md: the entries, then the outcomes, cell by cell. */
export function policyTable(ops: readonly Operation[]): string {
	const { operations, kinds, cells } = tableSize(ops)
	const rest = ops.filter((o) => o.face === 'rest').length
	const lines = [
		`${operations} operations (${rest} routes, the upgrade of \`/ws\` among them, and ${operations - rest} frames and commands of the channel), ${kinds} kinds of caller: ${cells} cells.`,
		'',
		'### Entries',
		'',
		'| operation | action | resource | found by | permission | group | destructive |',
		'|---|---|---|---|---|---|---|',
	]
	for (const { name, entry } of ops) {
		const find = (entry.find ?? []).map(findText).join(', ')
		lines.push(
			`| \`${name}\` | ${entry.action} | ${entry.resource}${entry.credential === 'key' ? ' (API key only)' : ''} | ${find} | ${entry.permission ?? ''} | ${entry.group ?? ''} | ${entry.destructive ? 'yes' : ''} |`,
		)
	}
	lines.push(
		'',
		'### Outcomes',
		'',
		'Each cell is the answer on the resources the operation is tried on, in order: `mine` (of the',
		"caller's company, within an API key's `userbot_ids`: userbot A, an endpoint of A), `beyond` (of",
		"the company, out of the key's reach: userbot B, the endpoint of all the company's userbots) and",
		"`foreign` (another company's); for a member, invite or key `mine` and `foreign`; one answer where",
		'the request names none. `✓` allowed; `401`; `403s` `status_not_allowed`, `403c` `company_inactive`,',
		'`403k` `key_scope`, `403p` `permission_denied`; `404`; `400` on the body field naming the userbot;',
		`on the channel \`nf\` \`${E.USERBOT_NOT_FOUND}\` and \`pd\` \`${E.PERMISSION_DENIED}\`, and the upgrade refused`,
		'(`401`, `403s`, `403c`) for a caller without a socket.',
		'',
		...PRINCIPAL_KINDS.map((k) => `- \`${k.id}\`: ${k.label}`),
		'',
		`| operation | ${PRINCIPAL_KINDS.map((k) => k.id).join(' | ')} |`,
		`|---|${PRINCIPAL_KINDS.map(() => '---').join('|')}|`,
	)
	for (const op of ops)
		lines.push(`| \`${op.name}\` | ${PRINCIPAL_KINDS.map((k) => cellsOf(op, k).join(' ')).join(' | ')} |`)
	return lines.join('\n')
}

const START = '<!-- policy-table:start (generated by npm run docs: do not edit) -->'
const END = '<!-- policy-table:end -->'

/** docs/policy.md with its generated part replaced. */
export function withPolicyTable(doc: string, table: string): string {
	const start = doc.indexOf(START)
	const end = doc.indexOf(END)
	if (start < 0 || end < start) throw new Error('docs/policy.md has no policy table markers')
	return `${doc.slice(0, start + START.length)}\n${table}\n${doc.slice(end)}`
}
