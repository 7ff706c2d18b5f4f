import { readFileSync, writeFileSync } from 'node:fs'
import { getTestInstance } from '../helpers'
import { type Cell, cellKey, runMatrix } from './probe'
import { buildWorld } from './world'

/**
 * How many cells of the policy matrix another checkout answers otherwise (issue 43's closing note):
 *
 *   bun test/policy/changed-cells.ts plan /tmp/plan.json      # here: the cells and what the table says
 *   cp test/policy/{world,probe,changed-cells}.ts <checkout>/test/policy/
 *   (cd <checkout> && bun test/policy/changed-cells.ts run /tmp/plan.json /tmp/answers.json)
 *
 * `run` builds the same world on that checkout's app and makes the same requests (it imports nothing
 * of the policy), then prints the cells whose answer differs from the plan's, by operation.
 */
interface Plan {
	env: Record<string, string>
	cells: Cell[]
	expected: Record<string, string>
}

async function plan(out: string) {
	const { WIDEST_ENV } = await import('../../src/entry/generate-docs')
	const { PRINCIPAL_KINDS } = await import('../../src/server/policy/kinds')
	const { operationsOf } = await import('../../src/server/policy/table')
	const { committedTable, expectedOf, MATRIX_ENV, planOf } = await import('./table-file')
	const { cellsOfPlan } = await import('./probe')
	const env = { ...WIDEST_ENV, ...MATRIX_ENV }
	const t = await getTestInstance(env, { listen: false })
	try {
		const ops = operationsOf({ routes: t.app.routes, commands: t.commands.values() })
		const cells = cellsOfPlan(
			ops.map(planOf),
			PRINCIPAL_KINDS.map((k) => k.id),
		)
		const expected = expectedOf(committedTable())
		const plan: Plan = {
			env,
			cells,
			expected: Object.fromEntries(cells.map((c) => [cellKey(c), expected(c) ?? ''])),
		}
		writeFileSync(out, JSON.stringify(plan))
		process.stdout.write(`${cells.length} cells planned\n`)
	} finally {
		await t.stop()
	}
}

async function run(planFile: string, out: string) {
	const plan = JSON.parse(readFileSync(planFile, 'utf8')) as Plan
	const t = await getTestInstance(plan.env)
	try {
		const world = await buildWorld(t)
		const answers = await runMatrix(world, plan.cells, (c) => plan.expected[cellKey(c)])
		writeFileSync(out, JSON.stringify(Object.fromEntries(answers), null, 1))
		const changed = plan.cells.filter((c) => answers.get(cellKey(c)) !== plan.expected[cellKey(c)])
		const byOp = new Map<string, string[]>()
		for (const c of changed)
			byOp.set(c.op.name, [
				...(byOp.get(c.op.name) ?? []),
				`${c.kind}/${c.role ?? '-'}: ${answers.get(cellKey(c))} → ${plan.expected[cellKey(c)]}`,
			])
		for (const [op, lines] of byOp) process.stdout.write(`${op} (${lines.length}): ${lines.join('; ')}\n`)
		process.stdout.write(`${changed.length} of ${plan.cells.length} cells answer otherwise here\n`)
	} finally {
		await t.stop()
	}
}

const [mode, a, b] = process.argv.slice(2)
if (mode === 'plan' && a) await plan(a)
else if (mode === 'run' && a && b) await run(a, b)
else throw new Error('usage: changed-cells.ts plan <out.json> | run <plan.json> <answers.json>')
