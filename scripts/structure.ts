/**
 * Four figures on how the source tree reads, for the tree this script runs in (`npm run structure`):
 *
 * 1. Imports from `plugins/` and `examples/` into `src/` or `db/` other than the plugin entry: every
 *    module specifier (import, export-from, dynamic import, require) in a `.ts` file under those two
 *    folders that resolves into `src/` or `db/`, by a relative path or a package entry of our own
 *    (`userbot-gateway/...` through package.json `exports`), and is not `src/server/plugin/api.ts`. Those in
 *    test files are counted apart.
 * 2. Source files over 300 lines: `.ts`/`.tsx` under `src/`, `plugins/`, `examples/` and
 *    `packages/client/src` (its `generated/` folder left out), counted by lines of text.
 * 3. Functions over 80 lines in the same files: every function declaration, function expression, arrow
 *    function, method, accessor and constructor, found with the TypeScript compiler API, from its first
 *    token to its closing one; a nested function counts on its own too.
 * 4. Repeated blocks in the same files: each line is normalised (trimmed, inner blanks collapsed);
 *    blank lines, comment lines and lines without a letter or digit (`}`, `})`) are dropped. Every
 *    window of 8 consecutive kept lines is hashed; a window that also occurs in another file is
 *    duplicated. Overlapping duplicated windows in one file merge into one block; the figure is the
 *    number of such blocks summed over files (a block shared by two files counts twice), with the
 *    kept lines they cover.
 *
 * `--list` prints the files, functions and blocks behind each figure.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import ts from 'typescript'

const REPO = resolve(import.meta.dir, '..')
const ENTRY = join(REPO, 'src', 'server', 'plugin', 'api.ts')
const WINDOW = 8
const FILE_LIMIT = 300
const FUNCTION_LIMIT = 80
const list = process.argv.includes('--list')

function filesUnder(dir: string, keep: (path: string) => boolean): string[] {
	const root = join(REPO, dir)
	if (!existsSync(root)) return []
	return readdirSync(root, { recursive: true, withFileTypes: true })
		.filter((e) => e.isFile() && keep(join(e.parentPath, e.name)))
		.map((e) => join(e.parentPath, e.name))
		.filter((p) => !p.split(sep).includes('node_modules'))
		.sort()
}

const isTs = (p: string) => /\.tsx?$/.test(p) && !p.endsWith('.d.ts')
const rel = (p: string) => relative(REPO, p)

/** The source files of figures 2 to 4. */
function sourceFiles(): string[] {
	const generated = join(REPO, 'packages', 'client', 'src', 'generated') + sep
	return ['src', 'plugins', 'examples', join('packages', 'client', 'src')]
		.flatMap((d) => filesUnder(d, isTs))
		.filter((p) => !p.startsWith(generated))
}

const SPECIFIER =
	/\bfrom\s*['"]([^'"]+)['"]|\bimport\s*['"]([^'"]+)['"]|\b(?:import|require)\s*\(\s*['"]([^'"]+)['"]\s*\)/g

/** Our own package entries (`userbot-gateway/plugin` -> src/server/plugin/api.ts), from package.json. */
function ownEntries(): Map<string, string> {
	const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
		name: string
		exports?: Record<string, string>
	}
	const entries = new Map<string, string>()
	for (const [key, target] of Object.entries(pkg.exports ?? {}))
		entries.set(key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`, resolve(REPO, target))
	return entries
}

/** The file a specifier names, when it is a relative path or one of our entries; null for packages. */
function target(file: string, specifier: string, entries: Map<string, string>): string | null {
	if (specifier.startsWith('.') || specifier.startsWith('/')) return resolve(dirname(file), specifier)
	return entries.get(specifier) ?? null
}

function coreImports(): { count: number; inTests: number; lines: string[] } {
	const entries = ownEntries()
	const core = [join(REPO, 'src') + sep, join(REPO, 'db') + sep]
	const lines: string[] = []
	let count = 0
	let inTests = 0
	for (const file of ['plugins', 'examples'].flatMap((d) => filesUnder(d, isTs))) {
		for (const m of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
			const specifier = m[1] ?? m[2] ?? m[3] ?? ''
			const to = target(file, specifier, entries)
			if (!to || to.replace(/\.ts$/, '') === ENTRY.replace(/\.ts$/, '')) continue
			if (!core.some((c) => to.startsWith(c))) continue
			const test = file.endsWith('.test.ts') || rel(file).split(sep).includes('test')
			if (test) inTests++
			else count++
			lines.push(`${rel(file)}: ${specifier}${test ? ' (test)' : ''}`)
		}
	}
	return { count, inTests, lines }
}

function longFunctions(files: string[]): string[] {
	const found: string[] = []
	for (const file of files) {
		const text = readFileSync(file, 'utf8')
		const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
		const visit = (node: ts.Node): void => {
			if (ts.isFunctionLike(node) && 'body' in node && node.body) {
				const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line
				const end = source.getLineAndCharacterOfPosition(node.getEnd()).line
				const lines = end - start + 1
				if (lines > FUNCTION_LIMIT) found.push(`${rel(file)}:${start + 1} ${lines} lines`)
			}
			ts.forEachChild(node, visit)
		}
		visit(source)
	}
	return found
}

/** The kept, normalised lines of a file with their line numbers (figure 4). */
function keptLines(text: string): { line: number; text: string }[] {
	const kept: { line: number; text: string }[] = []
	text.split('\n').forEach((raw, i) => {
		const line = raw.trim().replace(/\s+/g, ' ')
		if (!/[A-Za-z0-9]/.test(line)) return
		if (/^(\/\/|\/\*|\*)/.test(line)) return
		kept.push({ line: i + 1, text: line })
	})
	return kept
}

function repeatedBlocks(files: string[]): { blocks: string[]; lines: number } {
	const windows = new Map<string, Set<string>>()
	const perFile = files.map((file) => {
		const kept = keptLines(readFileSync(file, 'utf8'))
		const keys: string[] = []
		for (let i = 0; i + WINDOW <= kept.length; i++) {
			const key = kept
				.slice(i, i + WINDOW)
				.map((k) => k.text)
				.join('\n')
			keys.push(key)
			const owners = windows.get(key) ?? new Set<string>()
			owners.add(file)
			windows.set(key, owners)
		}
		return { file, kept, keys }
	})
	const blocks: string[] = []
	let lines = 0
	for (const { file, kept, keys } of perFile) {
		let i = 0
		while (i < keys.length) {
			if ((windows.get(keys[i] ?? '')?.size ?? 0) < 2) {
				i++
				continue
			}
			let j = i
			while (j + 1 < keys.length && (windows.get(keys[j + 1] ?? '')?.size ?? 0) >= 2) j++
			const first = kept[i]?.line ?? 0
			const last = kept[j + WINDOW - 1]?.line ?? 0
			lines += j - i + WINDOW
			blocks.push(`${rel(file)}:${first}-${last}`)
			i = j + WINDOW
		}
	}
	return { blocks, lines }
}

const files = sourceFiles()
const imports = coreImports()
const big = files
	.map((f) => ({ f, n: readFileSync(f, 'utf8').split('\n').length - 1 }))
	.filter(({ n }) => n > FILE_LIMIT)
const functions = longFunctions(files)
const repeated = repeatedBlocks(files)

console.log(
	`imports from plugins/ and examples/ into src/ or db/ other than the plugin entry: ${imports.count} (plus ${imports.inTests} in their tests)`,
)
console.log(`source files over ${FILE_LIMIT} lines: ${big.length} of ${files.length}`)
console.log(`functions over ${FUNCTION_LIMIT} lines: ${functions.length}`)
console.log(
	`repeated blocks (>= ${WINDOW} normalised lines also found in another file): ${repeated.blocks.length} covering ${repeated.lines} lines`,
)
if (list) {
	const section = (title: string, rows: string[]) =>
		console.log(`\n# ${title}\n${rows.map((r) => `  ${r}`).join('\n')}`)
	section('imports', imports.lines)
	section(
		'files',
		big.map(({ f, n }) => `${rel(f)} ${n} lines`),
	)
	section('functions', functions)
	section('blocks', repeated.blocks)
}
