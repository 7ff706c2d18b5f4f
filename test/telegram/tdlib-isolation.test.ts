import { describe, expect, it } from 'bun:test'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { tdjsonMapped } from '../preload'

/**
 * No test loads TDLib into the test runner (docs/development.md#real-tdlib-in-tests): one of
 * TDLib's aborts there ends the whole run and its report. Tests that need real TDLib use a
 * supervisor child (`test/supervisor/helpers.ts`) or the tests' TDLib child (`tdlib-child.ts`).
 * Two guards: this file reads what every test file loads, import by import; `test/preload.ts`
 * checks after every test that libtdjson is not mapped into this process.
 */
const ROOT = resolve(import.meta.dir, '../..')
const TEST = join(ROOT, 'test')

/** Modules that load TDLib when imported: tdl itself, and the service's real backend. */
const LOADS_TDLIB = new Set(['tdl', 'tdl/'])
const BACKEND_FILES = ['src/runtime/telegram/tdlib.ts', 'src/runtime/telegram/tdlib-client.ts'].map((f) =>
	join(ROOT, f),
)
/** Not to be imported by a test file itself (it holds the library's path, which a test could load). */
const NOT_FROM_TESTS = new Set(['prebuilt-tdlib'])

const transpiler = new Bun.Transpiler({ loader: 'ts' })
const scanned = new Map<string, string[]>()
/** What a file loads: its imports and `import()`s, without the type-only ones (they load nothing). */
function importsOf(file: string): string[] {
	let paths = scanned.get(file)
	if (!paths) {
		paths = transpiler.scanImports(readFileSync(file, 'utf8')).map((i) => i.path)
		scanned.set(file, paths)
	}
	return paths
}

/** The file a relative import names, as Bun resolves it; undefined for a package. */
function resolveRelative(from: string, path: string): string | undefined {
	if (!path.startsWith('.')) return undefined
	try {
		return Bun.resolveSync(path, dirname(from))
	} catch {
		return undefined
	}
}

/**
 * Each way from `entry` to something that loads TDLib, through the code it imports (statically or
 * by `import()`; `import type` loads nothing), as "file -> file -> module".
 */
export function pathsToTdlib(entry: string): string[] {
	const found: string[] = []
	const seen = new Set<string>()
	const walk = (file: string, trail: string[]) => {
		if (seen.has(file)) return
		seen.add(file)
		for (const path of importsOf(file)) {
			const here = [...trail, relative(ROOT, file)]
			const pkg = path.split('/')[0] ?? path
			if (LOADS_TDLIB.has(path) || pkg === 'tdl' || (trail.length === 0 && NOT_FROM_TESTS.has(pkg))) {
				found.push([...here, path].join(' -> '))
				continue
			}
			const target = resolveRelative(file, path)
			if (!target) continue
			if (BACKEND_FILES.includes(target)) {
				found.push([...here, relative(ROOT, target)].join(' -> '))
				continue
			}
			if (target.endsWith('.ts') || target.endsWith('.tsx')) walk(target, here)
		}
	}
	walk(entry, [])
	return found
}

const testFiles = () =>
	readdirSync(TEST, { recursive: true, encoding: 'utf8' })
		.filter((f) => f.endsWith('.test.ts'))
		.map((f) => join(TEST, f))

describe('the test runner never loads TDLib', () => {
	it('no test file imports tdl or the real backend, directly or through what it imports', () => {
		const files = testFiles()
		expect(files.length).toBeGreaterThan(200)
		expect(files.flatMap(pathsToTdlib)).toEqual([])
	})

	it('would see a test that did, directly or two imports away', () => {
		const dir = mkdtempSync(join(TEST, '.guard-'))
		try {
			const direct = join(dir, 'direct.test.ts')
			// The module names are put together here, so that no line of this file imports them itself.
			const quoted = (name: string) => `'${name}'`
			writeFileSync(direct, `import * as tdl from ${quoted('tdl')}\nconsole.log(tdl)\n`)
			const helper = join(dir, 'helper.ts')
			writeFileSync(
				helper,
				`export const load = () => import('${relative(dir, join(ROOT, 'src/runtime/telegram/tdlib'))}')\n`,
			)
			const indirect = join(dir, 'indirect.test.ts')
			writeFileSync(indirect, "import { load } from './helper'\nload()\n")
			const path = join(dir, 'path.test.ts')
			writeFileSync(path, `import { getTdjson } from ${quoted('prebuilt-tdlib')}\nconsole.log(getTdjson())\n`)
			expect(pathsToTdlib(direct)).toHaveLength(1)
			expect(pathsToTdlib(indirect)).toEqual([
				`${relative(ROOT, indirect)} -> ${relative(ROOT, helper)} -> src/runtime/telegram/tdlib.ts`,
			])
			expect(pathsToTdlib(path)).toHaveLength(1)
		} finally {
			rmSync(dir, { recursive: true, force: true })
		}
	})

	it('and libtdjson is not mapped into this process (checked after every test by test/preload.ts)', () => {
		expect(tdjsonMapped()).toBe(false)
		// What the check reads would show it: this process's own maps, where bun itself is.
		expect(readFileSync('/proc/self/maps', 'utf8')).toContain(process.execPath.split('/').at(-1) as string)
	})
})
