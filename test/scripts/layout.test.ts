import { afterEach, describe, expect, it } from 'bun:test'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { runLayout } from '../../scripts/layout/run'
import { LayoutError, type Move } from '../../scripts/layout/tree'

/** The layout codemod (scripts/layout.ts) on a small git repository of its own. */

const roots: string[] = []
afterEach(() => {
	for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true })
})

function git(root: string, ...args: string[]): string {
	const run = Bun.spawnSync(['git', ...args], { cwd: root, stdout: 'pipe', stderr: 'pipe' })
	if (run.exitCode !== 0) throw new Error(run.stderr.toString())
	return run.stdout.toString()
}

function repo(files: Record<string, string>): string {
	const root = mkdtempSync(join(tmpdir(), 'ubg-layout-'))
	roots.push(root)
	for (const [path, text] of Object.entries(files)) {
		mkdirSync(dirname(join(root, path)), { recursive: true })
		writeFileSync(join(root, path), text)
	}
	git(root, 'init', '-q')
	git(root, 'add', '-A')
	git(root, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'start')
	return root
}

const read = (root: string, path: string) => readFileSync(join(root, path), 'utf8')

/** Every file's text and git's view of the tree: what a second run must leave as it is. */
const snapshot = (root: string) =>
	git(root, 'ls-files', '-co', '--exclude-standard')
		.split('\n')
		.filter(Boolean)
		.map((p) => `${p}\n${read(root, p)}`)
		.join('\n') + git(root, 'status', '--porcelain')

const FILES: Record<string, string> = {
	'src/util.ts': 'export const one = 1\n',
	'src/plugin-api.ts': [
		"import { one } from './util'",
		"export { two } from './two.ts'",
		"import { join } from 'node:path'",
		"export const here = join(import.meta.dir, '..', 'docs')",
		"export const sibling = new URL('./two.ts', import.meta.url)",
		'export const api = one',
		'',
	].join('\n'),
	'src/two.ts': 'export const two = 2\n',
	'src/app.ts': [
		"import { api } from './plugin-api'",
		"const lazy = () => import('./plugin-api.ts')",
		'// the entry (src/plugin-api.ts) and its old name plugin-api.ts in a sentence',
		"const fixture = `import { x } from './plugin-api'`",
		'export { api, lazy, fixture }',
		'',
	].join('\n'),
	'test/app.test.ts': [
		"import { api } from '../src/plugin-api'",
		"import { join } from 'node:path'",
		"const entry = join(import.meta.dir, '..', 'src', 'plugin-api.ts')",
		"const fromRoot = join(process.cwd(), 'src', 'plugin-api.ts')",
		'export { api, entry, fromRoot }',
		'',
	].join('\n'),
	'package.json': `${JSON.stringify({ exports: { './plugin': './src/plugin-api.ts' }, scripts: { x: 'bun src/plugin-api.ts' } }, null, '\t')}\n`,
	'tsconfig.json': '{ "files": ["src/plugin-api.ts"] }\n',
	'notes/guide.md': '# Guide\n\nThe [entry](../src/plugin-api.ts#L1) and [util](../src/util.ts).\n',
	'README.md': 'See [the entry](src/plugin-api.ts) and `src/plugin-api.ts`.\n',
}

const MAP: Move[] = [{ from: 'src/plugin-api.ts', to: 'src/plugin/api.ts' }]

describe('the layout codemod', () => {
	it('moves a file with git and sets every path to it, and from it, right', () => {
		const root = repo(FILES)
		const report = runLayout({ root, map: MAP })
		expect(report.moved).toEqual(MAP)
		expect(existsSync(join(root, 'src/plugin-api.ts'))).toBe(false)
		expect(git(root, 'status', '--porcelain')).toContain('RM src/plugin-api.ts -> src/plugin/api.ts')

		// From the moved file: its imports, its folder-relative paths.
		const api = read(root, 'src/plugin/api.ts')
		expect(api).toContain("import { one } from '../util'")
		expect(api).toContain("export { two } from '../two.ts'")
		expect(api).toContain("join(import.meta.dir, '..', '..', 'docs')")
		expect(api).toContain("new URL('../two.ts', import.meta.url)")

		// Into the moved file: imports, import(), paths from the root, its name in a sentence.
		const app = read(root, 'src/app.ts')
		expect(app).toContain("import { api } from './plugin/api'")
		expect(app).toContain("import('./plugin/api.ts')")
		expect(app).toContain('// the entry (src/plugin/api.ts) and its old name plugin/api.ts in a sentence')
		// An import written inside a string is a fixture's, not this file's.
		expect(app).toContain("`import { x } from './plugin-api'`")
		const test = read(root, 'test/app.test.ts')
		expect(test).toContain("from '../src/plugin/api'")
		expect(test).toContain("join(import.meta.dir, '..', 'src', 'plugin', 'api.ts')")
		expect(test).toContain("join(process.cwd(), 'src', 'plugin', 'api.ts')")

		// JSON path strings and Markdown links.
		const pkg = JSON.parse(read(root, 'package.json'))
		expect(pkg.exports['./plugin']).toBe('./src/plugin/api.ts')
		expect(pkg.scripts.x).toBe('bun src/plugin/api.ts')
		expect(read(root, 'tsconfig.json')).toContain('"src/plugin/api.ts"')
		expect(read(root, 'notes/guide.md')).toContain(
			'[entry](../src/plugin/api.ts#L1) and [util](../src/util.ts)',
		)
		expect(read(root, 'README.md')).toBe('See [the entry](src/plugin/api.ts) and `src/plugin/api.ts`.\n')
		expect(report.rewritten.map((r) => r.path).sort()).toEqual([
			'README.md',
			'notes/guide.md',
			'package.json',
			'src/app.ts',
			'src/plugin-api.ts',
			'test/app.test.ts',
			'tsconfig.json',
		])
	})

	it('changes nothing the second time', () => {
		const root = repo(FILES)
		runLayout({ root, map: MAP })
		const after = snapshot(root)
		const again = runLayout({ root, map: MAP })
		expect(again).toMatchObject({ moved: [], done: 1, rewritten: [] })
		expect(snapshot(root)).toBe(after)
	})

	it('sets right an import of the old path that arrives after the layout ran', () => {
		const root = repo(FILES)
		runLayout({ root, map: MAP })
		writeFileSync(join(root, 'src/late.ts'), "import { api } from './plugin-api'\nexport const late = api\n")
		const report = runLayout({ root, map: MAP })
		expect(report.rewritten).toEqual([{ path: 'src/late.ts', changes: 1 }])
		expect(read(root, 'src/late.ts')).toContain("from './plugin/api'")
	})

	it('stops before any change at an import it cannot resolve, and names it', () => {
		const root = repo({ ...FILES, 'src/broken.ts': "import { gone } from './gone'\nexport { gone }\n" })
		const before = snapshot(root)
		expect(() => runLayout({ root, map: MAP })).toThrow(LayoutError)
		expect(() => runLayout({ root, map: MAP })).toThrow("src/broken.ts: cannot resolve './gone'")
		expect(snapshot(root)).toBe(before)
	})

	it('refuses a map whose new path is already taken', () => {
		const root = repo({ ...FILES, 'src/plugin/api.ts': 'export {}\n' })
		expect(() => runLayout({ root, map: MAP })).toThrow('src/plugin-api.ts -> src/plugin/api.ts: both exist')
	})

	it('moves a folder the map empties along, in paths written to the folder', () => {
		const root = repo({
			'src/edge/app.ts': 'export const app = 1\n',
			'src/main.ts': "import { app } from './edge/app'\nexport { app }\n",
			'notes/a.md': '# A\n\nThe edge (`src/edge/`) and [its app](../src/edge/app.ts).\n',
		})
		runLayout({ root, map: [{ from: 'src/edge/app.ts', to: 'src/platform/edge/app.ts' }] })
		expect(read(root, 'src/main.ts')).toContain("from './platform/edge/app'")
		expect(read(root, 'notes/a.md')).toContain(
			'(`src/platform/edge/`) and [its app](../src/platform/edge/app.ts)',
		)
		expect(existsSync(join(root, 'src/edge'))).toBe(false)
	})
	it('keeps an import of a file that became the index.ts of a folder pointing at the folder', () => {
		const root = repo({
			'src/config.ts': 'export const config = 1\n',
			'src/app.ts': "import { config } from './config'\nexport const app = () => import('./config.ts')\n",
			'src/auth/a.ts': "import { config } from '../config'\nexport { config }\n",
			'test/c.test.ts': "import { config } from '../src/config'\nexport { config }\n",
		})
		runLayout({ root, map: [{ from: 'src/config.ts', to: 'src/config/index.ts' }] })
		expect(read(root, 'src/app.ts')).toContain("import { config } from './config'\n")
		expect(read(root, 'src/app.ts')).toContain("import('./config/index.ts')")
		expect(read(root, 'src/auth/a.ts')).toContain("from '../config'\n")
		expect(read(root, 'test/c.test.ts')).toContain("from '../src/config'\n")
		expect(existsSync(join(root, 'src/config/index.ts'))).toBe(true)
	})

	it('leaves a path written to the folder a file became, written after the layout ran', () => {
		const root = repo({ 'src/config.ts': 'export const config = 1\n' })
		const map: Move[] = [{ from: 'src/config.ts', to: 'src/config/index.ts' }]
		runLayout({ root, map })
		const text = '# A\n\n`src/config/` holds `index.ts`; see src/config and `src/config.ts`.\n'
		writeFileSync(join(root, 'notes.md'), text)
		runLayout({ root, map })
		expect(read(root, 'notes.md')).toBe(
			'# A\n\n`src/config/` holds `index.ts`; see src/config and `src/config/index.ts`.\n',
		)
	})

	it('lists the loose files of the watched folders that the map neither moves nor keeps', () => {
		const root = repo({
			...FILES,
			'src/context.ts': 'export {}\n',
			'src/added-later.ts': 'export {}\n',
			'src/emulator/index.ts': 'export {}\n',
			'src/emulator/added.ts': 'export {}\n',
			'src/emulator/deep/not-loose.ts': 'export {}\n',
		})
		const loose = [
			{ folder: 'src', stays: ['context.ts', 'util.ts', 'two.ts', 'app.ts'] },
			{ folder: 'src/emulator', stays: ['index.ts'] },
		]
		const report = runLayout({ root, map: MAP, loose, dryRun: true })
		expect(report.unmapped).toEqual(['src/added-later.ts', 'src/emulator/added.ts'])
		// A warning, not a stop: the layout runs, and a second run still names them.
		expect(runLayout({ root, map: MAP, loose }).moved).toEqual(MAP)
		expect(runLayout({ root, map: MAP, loose }).unmapped).toEqual([
			'src/added-later.ts',
			'src/emulator/added.ts',
		])
	})
})
