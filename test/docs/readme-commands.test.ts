import { describe, expect, it } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

const root = join(import.meta.dir, '..', '..')

/**
 * The README names every built-in command once, in code, under its group (the list a newcomer reads
 * first); the generated reference (docs/commands.json, checked up to date by its own test) is the
 * registry's word on what exists.
 */
describe('the README', () => {
	it('names every built-in command of the generated reference', () => {
		const readme = readFileSync(join(root, 'README.md'), 'utf8')
		const doc = JSON.parse(readFileSync(join(root, 'docs', 'commands.json'), 'utf8')) as {
			commands: Array<{ name: string }>
		}
		expect(doc.commands.length).toBeGreaterThan(50)
		const missing = doc.commands.map((c) => c.name).filter((name) => !readme.includes(`\`${name}\``))
		expect(missing).toEqual([])
	})
})
