import { afterAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generate } from '../../packages/client/scripts/generate'

/**
 * The client package's types are the documents' (docs/commands.json, docs/openapi.json, themselves
 * held to the server by test/catalog/docs.test.ts): made afresh they are the committed files.
 */
const root = join(import.meta.dir, '..', '..')
const fresh = mkdtempSync(join(tmpdir(), 'ubg-client-gen-'))
afterAll(() => rmSync(fresh, { recursive: true, force: true }))

describe('packages/client/src/generated', () => {
	it.each(['commands.ts', 'rest-api.ts'])('%s is current (npm run docs writes it)', (file) => {
		generate(fresh)
		const committed = readFileSync(join(root, 'packages', 'client', 'src', 'generated', file), 'utf8')
		expect(readFileSync(join(fresh, file), 'utf8')).toBe(committed)
	})
})
