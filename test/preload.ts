import { afterEach } from 'bun:test'
import { readFileSync } from 'node:fs'

/**
 * Preloaded into every test file (bunfig.toml): after each test, libtdjson must not be mapped into
 * the test runner (docs/development.md#real-tdlib-in-tests). The first test after which it is fails,
 * naming what was loaded; real TDLib belongs in a supervisor child or the tests' TDLib child
 * (test/telegram/tdlib-child.ts).
 */
export function tdjsonMapped(): boolean {
	return readFileSync('/proc/self/maps', 'utf8').includes('libtdjson')
}

let reported = false
afterEach(() => {
	if (reported || !tdjsonMapped()) return
	reported = true
	throw new Error(
		'libtdjson was loaded into the test runner by this test or its file: run real TDLib in a child process (test/telegram/tdlib-child.ts)',
	)
})
