import { describe, expect, it } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'

const REPO = resolve(import.meta.dir, '..', '..')
const ENTRY = 'userbot-gateway/plugin'

/**
 * Every module a file names: `import ... from`, `export ... from`, a bare `import '...'`, and
 * `import('...')` / `require('...')` with a literal. Comments are not told apart: a specifier
 * quoted in one counts too, which can only make the check stricter.
 */
const SPECIFIER =
	/\bfrom\s*['"]([^'"]+)['"]|\bimport\s*['"]([^'"]+)['"]|\b(?:import|require)\s*\(\s*['"]([^'"]+)['"]\s*\)/g

export function specifiersOf(source: string): string[] {
	return [...source.matchAll(SPECIFIER)].map((m) => m[1] ?? m[2] ?? m[3] ?? '')
}

/** The .ts files under `dir`, test files and all. */
function tsFiles(dir: string): string[] {
	return readdirSync(dir, { recursive: true, withFileTypes: true })
		.filter((e) => e.isFile() && e.name.endsWith('.ts'))
		.map((e) => join(e.parentPath, e.name))
}

const isTestFile = (root: string, file: string) =>
	file.endsWith('.test.ts') || relative(root, file).split(sep).includes('test')

/** The package's public entries (package.json `exports`): what a test of a plugin may use besides. */
const PUBLIC_ENTRIES = new Set(
	Object.keys(JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).exports as object)
		.filter((k) => k !== './package.json')
		.map((k) => (k === '.' ? 'userbot-gateway' : `userbot-gateway/${k.slice(2)}`)),
)

/**
 * Why `specifier`, named in `file` of the plugin folder `root`, is not allowed, or null when it is:
 * the plugin entry, a package (npm or `node:`/`bun:`), or a relative path that stays inside `root`.
 * A plugin's tests may also use the package's other public entries (the client, the test server).
 */
export function refusal(root: string, file: string, specifier: string): string | null {
	if (specifier.startsWith('.') || specifier.startsWith('/')) {
		const target = resolve(dirname(file), specifier)
		return target === root || target.startsWith(root + sep) ? null : 'leaves its plugin folder'
	}
	if (specifier === ENTRY) return null
	if (specifier === 'userbot-gateway' || specifier.startsWith('userbot-gateway/')) {
		if (isTestFile(root, file) && PUBLIC_ENTRIES.has(specifier)) return null
		return `is not ${ENTRY}`
	}
	return null
}

/** Every plugin folder: plugins/*, and examples/* but the client example (a program, not a plugin). */
function pluginRoots(): string[] {
	const under = (dir: string) =>
		readdirSync(join(REPO, dir), { withFileTypes: true })
			.filter((e) => e.isDirectory())
			.map((e) => join(REPO, dir, e.name))
	return [...under('plugins'), ...under('examples').filter((d) => !d.endsWith(`${sep}client`))]
}

describe('plugin imports', () => {
	it('every plugin, built-in or example, imports only userbot-gateway/plugin, packages and its own files', () => {
		const roots = pluginRoots()
		// The four REST plugins, the six command groups and the example group are all walked.
		for (const name of ['accounts', 'api-accounts', 'userbots', 'webhooks', 'commands-messages'])
			expect(roots).toContain(join(REPO, 'plugins', name))
		expect(roots).toContain(join(REPO, 'examples', 'chats'))
		const bad: string[] = []
		let seen = 0
		for (const root of roots) {
			for (const file of tsFiles(root)) {
				for (const specifier of specifiersOf(readFileSync(file, 'utf8'))) {
					seen++
					const why = refusal(root, file, specifier)
					if (why) bad.push(`${relative(REPO, file)}: '${specifier}' ${why}`)
				}
			}
		}
		expect(seen).toBeGreaterThan(300)
		expect(bad).toEqual([])
	})

	it('the client example uses the typed client package only', () => {
		const file = join(REPO, 'examples', 'client', 'index.ts')
		const ours = specifiersOf(readFileSync(file, 'utf8')).filter((s) => /^@?userbot-gateway\b/.test(s))
		expect(ours).toEqual(['@userbot-gateway/client'])
	})
})

describe('the import check', () => {
	const root = join(REPO, 'plugins', 'accounts')
	const file = join(root, 'routes', 'login.ts')

	it('reads every form of import', () => {
		const source = [
			"import { a } from '../../src/auth'",
			"import type { B } from 'userbot-gateway/plugin'",
			"export { c } from '../x'",
			"import '../../db/schema'",
			"const d = await import('../../../src/app')",
			"const e = require('node:fs')",
		].join('\n')
		expect(specifiersOf(source)).toEqual([
			'../../src/auth',
			'userbot-gateway/plugin',
			'../x',
			'../../db/schema',
			'../../../src/app',
			'node:fs',
		])
	})

	it('refuses the core by path, another plugin, and the package outside its plugin entry', () => {
		expect(refusal(root, file, '../../../src/auth')).toBe('leaves its plugin folder')
		expect(refusal(root, file, '../../../db/schema')).toBe('leaves its plugin folder')
		expect(refusal(root, file, '../../api-accounts/errors')).toBe('leaves its plugin folder')
		expect(refusal(root, file, '../../accounts-evil/x')).toBe('leaves its plugin folder')
		expect(refusal(root, file, 'userbot-gateway')).toBe(`is not ${ENTRY}`)
		expect(refusal(root, file, 'userbot-gateway/client')).toBe(`is not ${ENTRY}`)
	})

	it('allows the entry, packages, its own files, and public entries in its tests', () => {
		expect(refusal(root, file, ENTRY)).toBeNull()
		expect(refusal(root, file, 'drizzle-orm')).toBeNull()
		expect(refusal(root, file, 'node:path')).toBeNull()
		expect(refusal(root, file, '../guard')).toBeNull()
		expect(refusal(root, join(root, 'test', 'x.test.ts'), 'userbot-gateway/testing')).toBeNull()
		expect(refusal(root, join(root, 'test', 'x.test.ts'), 'userbot-gateway/nothing')).toBe(`is not ${ENTRY}`)
	})
})
