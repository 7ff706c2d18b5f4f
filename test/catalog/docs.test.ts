import { describe, expect, it } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { generateDocs, REFERENCE_FILE, ROOT } from '../../src/entry/generate-docs'

/** CI's check that the committed documents are what the code says: `npm run docs` rewrites them. */
describe('the generated documents', () => {
	it('are up to date: docs/*.json and the command reference in docs/commands.md', async () => {
		const { files } = await generateDocs()
		for (const [path, text] of Object.entries(files)) {
			const committed = readFileSync(join(ROOT, path), 'utf8')
			if (committed !== text) throw new Error(`${path} differs from what the code says: run npm run docs`)
		}
		expect(REFERENCE_FILE).toBe('docs/commands.md')
		expect(Object.keys(files)).toContain(REFERENCE_FILE)
	})
})
