/// <reference lib="dom" />
import type { Ctx, Page } from '../../context'
import { button, fill, h } from '../../dom'
import type { AuditLine } from '../../rest-types'
import { actionWords, actorName, type Names } from './audit-words'
import { AUDIT_PAGE } from './limits'
import { call, cell, emptyState, notice, say, stackTable, when } from './ui'

/**
 * Owners: the company's audit log (`GET /api/audit/`, docs/operator.md#audit-log), newest first, each
 * line a sentence, a page at a time.
 */
type Listed = Array<{ id: number; [k: string]: unknown }>

/** The names the sentences use, read once when the page opens. */
async function loadNames(me: number | null): Promise<Names> {
	const list = async (path: string) => {
		const answer = await call<Listed>('GET', path)
		return answer.ok && Array.isArray(answer.data) ? answer.data : []
	}
	const [members, userbots, keys, statuses, permissions] = await Promise.all([
		list('/accounts/members/'),
		list('/api/userbots/'),
		list('/api/keys/'),
		list('/accounts/statuses/'),
		list('/accounts/permissions/'),
	])
	const pairs = (rows: Listed, key: string, value: (r: Listed[number]) => unknown) =>
		new Map(rows.map((r) => [r[key] as never, String(value(r))]))
	return {
		me,
		users: pairs(members, 'id', (m) => `${m.first_name ?? ''} ${m.last_name ?? ''}`.trim() || m.email),
		userbots: pairs(userbots, 'id', (b) => b.name),
		keys: pairs(keys, 'id', (k) => k.name),
		statuses: pairs(statuses, 'code', (s) => s.name),
		permissions: pairs(permissions, 'code', (p) => p.description),
	}
}

/** A line of the log: when, who did what in a sentence, and from which client. */
const auditRow = (line: AuditLine, names: Names) =>
	h(
		'tr',
		{ attrs: { 'data-audit-entry': String(line.id), 'data-action': line.action } },
		cell('When', when(line.at)),
		cell(
			'What happened',
			h(
				'span',
				{ attrs: { 'data-audit-sentence': '' } },
				h('span', { class: 'co-who' }, actorName(line, names)),
				` ${actionWords(line, names)}.`,
			),
		),
		cell('From', line.client ?? 'unknown'),
	)

export function auditPage(ctx: Ctx): Page {
	const rows = h('tbody')
	const body = h('div', { attrs: { 'data-audit-list': '' } })
	const status = notice()
	const where = h('span', { class: 'muted', attrs: { 'data-audit-page': '' } })
	// The `before` of each page shown so far: the first is undefined (the newest lines).
	const cursors: Array<number | undefined> = [undefined]
	let names: Names | null = null

	const newer = button('Newer entries', { 'data-action': 'newer' }, () => {
		cursors.pop()
		void load()
	})
	const older = button('Older entries', { 'data-action': 'older' }, () => {
		const last = rows.lastElementChild?.getAttribute('data-audit-entry')
		if (!last) return
		cursors.push(Number(last))
		void load()
	})

	const load = async () => {
		names ??= await loadNames(ctx.me?.id ?? null)
		const before = cursors[cursors.length - 1]
		// One line more than shown tells whether there is an older page.
		const query = `?limit=${AUDIT_PAGE + 1}${before === undefined ? '' : `&before=${before}`}`
		const answer = await call<AuditLine[]>('GET', `/api/audit/${query}`)
		if (!answer.ok) return status.fail(say(answer))
		const lines = answer.data.slice(0, AUDIT_PAGE)
		const more = answer.data.length > AUDIT_PAGE
		const known = names
		const first = (cursors.length - 1) * AUDIT_PAGE
		newer.disabled = cursors.length === 1
		older.disabled = !more
		where.textContent = lines.length ? `Entries ${first + 1}–${first + lines.length}, newest first` : ''
		if (lines.length === 0) {
			return fill(
				body,
				emptyState(
					'audit',
					'Nothing has changed yet.',
					'Changes to the company appear here as they happen: API keys, invites and members, webhooks, userbots, and security changes of the Telegram accounts (two-step verification, sessions).',
				),
			)
		}
		fill(rows, ...lines.map((line) => auditRow(line, known)))
		fill(body, stackTable(['When', 'What happened', 'From'], rows))
	}

	void load()
	return {
		element: h(
			'div',
			{ class: 'page co-page', attrs: { 'data-page': 'audit' } },
			h(
				'section',
				{ class: 'card' },
				h('h2', null, 'Audit log'),
				h(
					'p',
					{ class: 'co-intro' },
					'Who changed what in the company, and from which address. Passwords, codes and keys are never written here.',
				),
				status,
				body,
				h('div', { class: 'co-pager', attrs: { role: 'group', 'aria-label': 'Pages' } }, newer, older, where),
			),
		),
	}
}
