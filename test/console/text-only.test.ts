import { describe, expect, it } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The console never turns a string into HTML: no sink that parses markup appears in its sources (the
 * browser tests show the behaviour; this keeps a later change from adding one unnoticed).
 */
const UI = join(import.meta.dir, '..', '..', 'src', 'console-ui')
const SINKS =
	/\b(innerHTML|outerHTML|insertAdjacentHTML|document\.write|createContextualFragment|DOMParser|srcdoc)\b/

function sources(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
		e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
	)
}

describe('console sources', () => {
	it('use no HTML-parsing sink anywhere', () => {
		const files = sources(UI)
		expect(files.length).toBeGreaterThan(5)
		const offenders = files.filter((f) => SINKS.test(readFileSync(f, 'utf8')))
		expect(offenders).toEqual([])
	})
})
