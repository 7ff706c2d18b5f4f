import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { WIDEST_ENV } from '../../src/entry/generate-docs'
import { PRINCIPAL_KINDS } from '../../src/server/policy/kinds'
import { type Operation, operationsOf, tableSize } from '../../src/server/policy/table'
import { getTestInstance, type TestInstance } from '../helpers'
import { cellKey, cellsOfPlan, runMatrix } from './probe'
import { committedTable, expectedOf, MATRIX_ENV, planOf } from './table-file'
import { buildWorld, type World } from './world'

/**
 * Issue 43's matrix: every route and command the app serves (from its own definitions, as the
 * OpenAPI and AsyncAPI documents are), tried by every kind of caller of the policy table on a
 * resource of its own and on ones it must not reach, over real HTTP and WebSocket on the emulator.
 * What each cell must answer is the committed table of docs/policy.md (which
 * test/catalog/docs.test.ts keeps equal to what the code's entries say): a route without an entry
 * does not start, one missing from the table or answering otherwise fails here.
 */
let t: TestInstance
let world: World
let ops: Operation[]
beforeAll(async () => {
	t = await getTestInstance({ ...WIDEST_ENV, ...MATRIX_ENV })
	ops = operationsOf({ routes: t.app.routes, commands: t.commands.values() })
	world = await buildWorld(t)
})
afterAll(() => t.stop())

describe('the policy matrix', () => {
	it('has a row of the committed table for every operation the app serves, and none more', () => {
		const table = committedTable()
		expect([...table.keys()].sort()).toEqual(ops.map((o) => o.name).sort())
		expect(PRINCIPAL_KINDS.map((k) => k.id)).toEqual([...(table.values().next().value?.keys() ?? [])])
	})

	it('answers every cell as the table says', async () => {
		const table = committedTable()
		const plans = ops.map(planOf)
		const cells = cellsOfPlan(
			plans,
			PRINCIPAL_KINDS.map((k) => k.id),
		)
		const expected = expectedOf(table)
		const answers = await runMatrix(world, cells, expected)
		const wrong = cells
			.filter((c) => answers.get(cellKey(c)) !== expected(c))
			.map((c) => `${cellKey(c)}: answered ${answers.get(cellKey(c))}, the table says ${expected(c)}`)
		const size = tableSize(ops)
		console.log(
			`policy matrix: ${size.operations} operations × ${size.kinds} kinds of caller = ${cells.length} cells (${wrong.length} differ)`,
		)
		expect(cells.length).toBe(size.cells)
		expect(wrong).toEqual([])
		// Five thousand requests over HTTP and WebSocket: about 2 s on a quiet machine, more on a busy one.
	}, 60_000)
})
