import { afterAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { count, fromJunit, fromOutput } from '../../.ci/count.mjs'

/**
 * `.ci/run`'s last line, `N passed, N failed`, whatever happened to the runner: from bun's JUnit
 * report, or, when the runner died before writing it (a native abort in a test's process), from
 * what it printed, naming the file it was running.
 */
const dir = mkdtempSync(join(tmpdir(), 'ubg-ci-count-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the CI counts', () => {
	it('come from the JUnit report when there is one', () => {
		const xml = `<testsuites><testsuite name="a">
			<testcase name="one" /><testcase name="two"><failure message="x">boom</failure></testcase>
			<testcase name="three"><skipped /></testcase><testcase name="four"></testcase>
		</testsuite></testsuites>`
		expect(fromJunit(xml)).toEqual({ passed: 2, failed: 1, note: '' })
	})

	it("come from the runner's output when it died without its report, naming the file it ran", async () => {
		writeFileSync(
			join(dir, 'a.test.ts'),
			"import { it } from 'bun:test'\nit('one', () => {})\nit('two', () => {})\n",
		)
		writeFileSync(
			join(dir, 'b.test.ts'),
			"import { it } from 'bun:test'\nit('three', () => {})\nit('dies', () => { process.abort() })\n",
		)
		const junit = join(dir, 'junit.xml')
		const run = Bun.spawnSync(
			[process.execPath, 'test', '--reporter=junit', `--reporter-outfile=${junit}`, 'a.test.ts', 'b.test.ts'],
			{ cwd: dir, env: { PATH: process.env.PATH ?? '' } },
		)
		expect(run.exitCode).not.toBe(0)
		const output = join(dir, 'output.log')
		writeFileSync(output, `${run.stdout.toString()}${run.stderr.toString()}`)
		expect(count(junit, output)).toEqual({
			passed: 3,
			failed: 1,
			note: 'the test runner ended without its report while running b.test.ts: counted from its output, and that file as one failure',
		})
	})

	it('count a failure once, though bun lists it again after the last file', () => {
		const text =
			'a.test.ts:\n(pass) one [1ms]\n(fail) two [2ms]\n\nb.test.ts:\n(pass) three\n\n(fail) two [2ms]\n'
		// The failure, once, and the file the runner died in.
		expect(fromOutput(text)).toMatchObject({ passed: 2, failed: 2 })
	})
})
