import { afterEach, describe, expect, it } from 'bun:test'
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DotenvError, loadDotenv } from '../src/platform/dotenv'

const dirs: string[] = []
afterEach(() => {
	for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})
const tempDir = () => {
	const d = mkdtempSync(join(tmpdir(), 'ubg-dotenv-'))
	dirs.push(d)
	return d
}

describe('loadDotenv (the compiled binary reads .env itself)', () => {
	it('adds what the environment lacks and never overrides what it has, as Bun does', () => {
		const file = join(tempDir(), '.env')
		writeFileSync(file, 'PORT=9000\nJWT_SECRET="a b # not a comment"\n# a comment\nexport HOST=0.0.0.0\n')
		const env: Record<string, string | undefined> = { PORT: '8001' }
		loadDotenv(file, env)
		expect(env).toEqual({ PORT: '8001', JWT_SECRET: 'a b # not a comment', HOST: '0.0.0.0' })
	})

	it('is no error when the file is missing, and one when it cannot be read', () => {
		const dir = tempDir()
		const env: Record<string, string | undefined> = {}
		loadDotenv(join(dir, '.env'), env)
		expect(env).toEqual({})
		const file = join(dir, 'unreadable')
		writeFileSync(file, 'A=1\n')
		chmodSync(file, 0)
		// root reads any file: a folder stands for an unreadable one there.
		const target = process.getuid?.() === 0 ? dir : file
		expect(() => loadDotenv(target, env)).toThrow(DotenvError)
		expect(() => loadDotenv(target, env)).toThrow(/^.*: E[A-Z]+$/)
	})
})
