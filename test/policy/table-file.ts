import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { POLICY_FILE, ROOT } from '../../src/entry/generate-docs'
import { rolesOf } from '../../src/server/policy/kinds'
import type { Operation } from '../../src/server/policy/table'
import type { Cell, PlannedOp } from './probe'

/**
 * What the matrix's app takes beside the widest app's settings: endpoints on 127.0.0.1 over http,
 * and the targets' proxy on a documentation address (the emulator dials nothing).
 */
export const MATRIX_ENV = {
	WEBHOOK_ALLOW_HTTP: 'true',
	WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
	PROXY_ALLOWED_HOSTS: '198.51.100.9',
} as const

/** The committed outcomes of docs/policy.md: operation → kind of caller → the cells, in role order. */
export function committedTable(): Map<string, Map<string, string[]>> {
	const text = readFileSync(join(ROOT, POLICY_FILE), 'utf8')
	const outcomes = text.slice(text.indexOf('### Outcomes'))
	const rows = outcomes.split('\n').filter((l) => l.startsWith('| '))
	const header = (rows.shift() ?? '').slice(2, -2).split(' | ').slice(1)
	const table = new Map<string, Map<string, string[]>>()
	for (const row of rows) {
		const [name, ...cells] = row.slice(2, -2).split(' | ')
		const byKind = new Map(header.map((kind, i) => [kind, (cells[i] ?? '').split(' ')]))
		table.set((name ?? '').replaceAll('`', ''), byKind)
	}
	return table
}

/** The committed answer of a cell. */
export const expectedOf = (table: ReturnType<typeof committedTable>) => (c: Cell) =>
	table.get(c.op.name)?.get(c.kind)?.[c.role ? c.op.roles.indexOf(c.role) : 0]

/** An operation as the matrix tries it: plain data, runnable on any checkout (./changed-cells.ts). */
export const planOf = (op: Operation): PlannedOp => ({
	name: op.name,
	face: op.face,
	resource: op.entry.resource,
	params: (op.entry.find ?? []).flatMap((f) => (f.from === 'param' ? [f.name] : [])),
	bodyFields: (op.entry.find ?? []).flatMap((f) => (f.from === 'body' ? [f.field] : [])),
	roles: [...rolesOf(op.entry)],
})
