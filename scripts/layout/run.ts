import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs'
import { join, posix } from 'node:path'
import { type FileContext, type Rewritten, rewriteCode, rewriteConfig, rewriteMarkdown } from './rewrite'
import { LayoutError, type LayoutTree, type Move, planTree } from './tree'

/**
 * One run of the layout codemod over a git working tree: plan (which moves are done, which to do),
 * rewrite every path in the text files in memory, and only when nothing failed write the files and
 * `git mv` them. An import that cannot be resolved stops the run before anything is written.
 */

export interface LayoutOptions {
	root: string
	map: readonly Move[]
	/** Files never rewritten (the codemod's own map and test, whose old paths are the point). */
	exclude?: readonly string[]
	/** Plan and report without writing. */
	dryRun?: boolean
	/** Folders whose loose files the map places one by one, with the files that stay there. */
	loose?: readonly LooseFolder[]
}

export interface LooseFolder {
	folder: string
	stays: readonly string[]
}

export interface LayoutReport {
	moved: Move[]
	/** Moves done by an earlier run. */
	done: number
	/** Entries whose old and new paths are both gone (the file was deleted since the map was written). */
	missing: Move[]
	/** Loose files of the `loose` folders that the map neither moves nor keeps: added since it was written. */
	unmapped: string[]
	rewritten: { path: string; changes: number }[]
	/** Biome's import order and line width on the rewritten files, or why not. */
	tidied: string
}

const CODE = /\.(ts|tsx|js|mjs|cjs)$/
const CODE_ROOTS = /^(src|plugins|examples|test|packages|scripts|db)\//
const CONFIG =
	/(^|\/)(package\.json|tsconfig[^/]*\.json|biome\.jsonc?|bunfig\.toml|Dockerfile[^/]*)$|^\.ci\/|^[^/]+\.ya?ml$/

function kindOf(path: string): 'code' | 'markdown' | 'config' | null {
	if (path.includes('node_modules/')) return null
	if (CODE.test(path) && (CODE_ROOTS.test(path) || !path.includes('/'))) return 'code'
	if (path.endsWith('.md')) return 'markdown'
	if (CONFIG.test(path)) return 'config'
	return null
}

function git(root: string, args: string[]): string {
	const run = Bun.spawnSync(['git', ...args], { cwd: root, stdout: 'pipe', stderr: 'pipe' })
	if (run.exitCode !== 0) throw new LayoutError(`git ${args.join(' ')}: ${run.stderr.toString().trim()}`)
	return run.stdout.toString()
}

/** Tracked files and new ones git does not ignore. */
function listFiles(root: string): string[] {
	return git(root, ['ls-files', '-z', '--cached', '--others', '--exclude-standard'])
		.split('\0')
		.filter((p) => p !== '' && existsSync(join(root, p)))
}

/** Files right in one of `loose`'s folders that no map entry names and that are not listed as staying. */
function unmappedIn(files: readonly string[], map: readonly Move[], loose: readonly LooseFolder[]): string[] {
	const named = new Set(map.flatMap((m) => [m.from, m.to]))
	const stays = new Set(loose.flatMap((l) => l.stays.map((name) => `${l.folder}/${name}`)))
	const folders = new Set(loose.map((l) => l.folder))
	return files.filter((f) => folders.has(posix.dirname(f)) && !named.has(f) && !stays.has(f)).sort()
}

/** Old file name -> its new path from the old folder, for a renamed file whose old name no other file has. */
function uniqueNames(tree: LayoutTree): Map<string, string> {
	const count = new Map<string, number>()
	const all = new Set([...tree.now, ...tree.moved.keys(), ...tree.moved.values()])
	for (const p of all) count.set(posix.basename(p), (count.get(posix.basename(p)) ?? 0) + 1)
	const names = new Map<string, string>()
	for (const [from, to] of tree.moved) {
		const name = posix.basename(from)
		if (name !== posix.basename(to) && count.get(name) === 1) {
			names.set(name, posix.relative(posix.dirname(from), to))
		}
	}
	return names
}

function rewriteAll(root: string, tree: LayoutTree, exclude: ReadonlySet<string>) {
	const names = uniqueNames(tree)
	const pendingTo = new Map(tree.pending.map((m) => [m.from, m.to]))
	const changed: { path: string; result: Rewritten }[] = []
	const errors: string[] = []
	for (const path of [...tree.now].sort()) {
		const kind = kindOf(path)
		if (kind === null || exclude.has(path)) continue
		const ctx: FileContext = { tree, path, newPath: pendingTo.get(path) ?? path, names }
		const text = readFileSync(join(root, path), 'utf8')
		const rewrite = kind === 'code' ? rewriteCode : kind === 'markdown' ? rewriteMarkdown : rewriteConfig
		const result = rewrite(text, ctx)
		errors.push(...result.errors)
		if (result.text !== text) changed.push({ path, result })
	}
	return { changed, errors }
}

function removeEmptyDirs(root: string, from: string): void {
	for (let d = posix.dirname(from); d !== '.' && d !== ''; d = posix.dirname(d)) {
		const abs = join(root, d)
		if (!existsSync(abs) || readdirSync(abs).length > 0) return
		rmdirSync(abs)
	}
}

export function runLayout(options: LayoutOptions): LayoutReport {
	const { root, map } = options
	const files = listFiles(root)
	const tree = planTree(files, map)
	const { changed, errors } = rewriteAll(root, tree, new Set(options.exclude ?? []))
	if (errors.length > 0) {
		throw new LayoutError(
			`nothing was changed: ${errors.length} path(s) cannot be followed\n  ${errors.join('\n  ')}`,
		)
	}
	const report: LayoutReport = {
		moved: [...tree.pending],
		done: map.length - tree.pending.length - tree.missing.length,
		missing: tree.missing,
		unmapped: unmappedIn(files, map, options.loose ?? []),
		rewritten: changed.map((c) => ({ path: c.path, changes: c.result.changes })),
		tidied: 'nothing to tidy',
	}
	if (options.dryRun) return report
	for (const { path, result } of changed) writeFileSync(join(root, path), result.text)
	const tracked = new Set(git(root, ['ls-files', '-z']).split('\0'))
	for (const m of tree.pending) {
		mkdirSync(join(root, posix.dirname(m.to)), { recursive: true })
		if (tracked.has(m.from)) git(root, ['mv', '--', m.from, m.to])
		else git(root, ['add', '--', m.from]) && git(root, ['mv', '--', m.from, m.to])
		removeEmptyDirs(root, m.from)
	}
	const pendingTo = new Map(tree.pending.map((m) => [m.from, m.to]))
	report.tidied = tidy(
		root,
		changed.map((c) => pendingTo.get(c.path) ?? c.path).filter((p) => CODE.test(p)),
	)
	return report
}

/**
 * A changed path changes a file's import order and may change its line widths: Biome's formatter and
 * import sorting (not its linter) set them as `npm run lint` wants, on the rewritten files only.
 */
function tidy(root: string, files: string[]): string {
	if (files.length === 0) return 'nothing to tidy'
	const biome = join(root, 'node_modules', '.bin', 'biome')
	if (!existsSync(biome)) return 'not tidied: no node_modules/.bin/biome'
	const run = Bun.spawnSync(
		[biome, 'check', '--write', '--linter-enabled=false', '--no-errors-on-unmatched', ...files],
		{
			cwd: root,
			stdout: 'pipe',
			stderr: 'pipe',
		},
	)
	if (run.exitCode !== 0)
		throw new LayoutError(`biome could not tidy the rewritten files:\n${run.stdout}${run.stderr}`)
	return `tidied ${files.length} file(s) with biome`
}
