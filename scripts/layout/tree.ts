import { posix } from 'node:path'

/**
 * The repository as the layout codemod sees it: repository-relative POSIX paths of files, before
 * and after the moves, and how a relative specifier resolves in it. Pure: the caller lists the files.
 */

/** Extensions a specifier may leave out, in the order TypeScript's bundler resolution tries them. */
export const CODE_EXTENSIONS = ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'] as const

export interface Move {
	from: string
	to: string
}

export interface LayoutTree {
	/** Every file, as it stands now. */
	readonly now: ReadonlySet<string>
	/** Every file after this run's moves. */
	readonly after: ReadonlySet<string>
	/** Old path -> new path, for every entry of the map (applied or pending). */
	readonly moved: ReadonlyMap<string, string>
	/** Old folder -> new folder, for a folder whose every file moves to one other folder. */
	readonly movedDirs: ReadonlyMap<string, string>
	/** The moves this run makes. */
	readonly pending: readonly Move[]
}

export class LayoutError extends Error {
	override name = 'LayoutError'
}

const dirsOf = (files: Iterable<string>): Set<string> => {
	const dirs = new Set<string>([''])
	for (const f of files) {
		for (let d = posix.dirname(f); d !== '.' && !dirs.has(d); d = posix.dirname(d)) dirs.add(d)
	}
	return dirs
}

/**
 * Sorts the map's entries into done, to do and impossible. An entry whose old and new paths both
 * exist is a conflict (something was added at the new place since): the run stops before any change.
 */
export function planTree(files: Iterable<string>, map: readonly Move[]): LayoutTree & { missing: Move[] } {
	const now = new Set(files)
	const olds = new Set(map.map((m) => m.from))
	const problems: string[] = []
	for (const m of map) if (olds.has(m.to)) problems.push(`${m.to} is both a new and an old path`)
	const pending: Move[] = []
	const missing: Move[] = []
	for (const m of map) {
		const hasOld = now.has(m.from)
		const hasNew = now.has(m.to)
		if (hasOld && hasNew) problems.push(`${m.from} -> ${m.to}: both exist`)
		else if (hasOld) pending.push(m)
		else if (!hasNew) missing.push(m)
	}
	if (problems.length > 0)
		throw new LayoutError(`the move map cannot be applied:\n  ${problems.join('\n  ')}`)
	const after = new Set(now)
	for (const m of pending) {
		after.delete(m.from)
		after.add(m.to)
	}
	const moved = new Map(map.map((m) => [m.from, m.to]))
	return { now, after, moved, movedDirs: movedFolders(after, map), pending, missing }
}

/** A folder the map empties, all of whose files go to one folder under the same names: `src/edge` -> `src/platform/edge`. */
function movedFolders(after: ReadonlySet<string>, map: readonly Move[]): Map<string, string> {
	const left = dirsOf(after)
	const targets = new Map<string, string | null>()
	for (const m of map) {
		const from = posix.dirname(m.from)
		const to = posix.dirname(m.to)
		const same = posix.basename(m.from) === posix.basename(m.to)
		const seen = targets.get(from)
		targets.set(from, same && (seen === undefined || seen === to) ? to : null)
	}
	const dirs = new Map<string, string>()
	for (const [from, to] of targets) if (to !== null && !left.has(from) && from !== to) dirs.set(from, to)
	return dirs
}

/** Where a repository path lands after the layout (a file or a folder), or the path itself. */
export function landing(tree: LayoutTree, path: string): string {
	const file = tree.moved.get(path)
	if (file !== undefined) return file
	for (const [from, to] of tree.movedDirs) {
		if (path === from) return to
		if (path.startsWith(`${from}/`)) return to + path.slice(from.length)
	}
	return path
}

export interface Resolved {
	/** The file or folder the specifier names, before the layout. */
	target: string
	kind: 'file' | 'dir' | 'index'
}

/**
 * What `spec` (relative, from folder `dir`) names before the layout: a file as written, with one
 * of the extensions left out, `.js` standing for `.ts`, a folder's index, or a folder. Old paths of
 * moves already applied count as existing, so an import written against the old layout (a branch
 * merged after the layout ran) is found and set right.
 */
export function resolveSpecifier(tree: LayoutTree, dir: string, spec: string): Resolved | null {
	const path = posix.normalize(posix.join(dir, spec)).replace(/\/$/, '')
	if (path.startsWith('..')) return null
	const exists = (p: string) => tree.now.has(p) || tree.moved.has(p)
	if (exists(path)) return { target: path, kind: 'file' }
	for (const ext of CODE_EXTENSIONS) if (exists(path + ext)) return { target: path + ext, kind: 'file' }
	const js = path.match(/^(.*)\.(m?)js$/)
	if (js)
		for (const ext of ['.ts', '.tsx'])
			if (exists(`${js[1]}${ext}`)) return { target: `${js[1]}${ext}`, kind: 'file' }
	for (const ext of CODE_EXTENSIONS)
		if (exists(`${path}/index${ext}`)) return { target: `${path}/index${ext}`, kind: 'index' }
	if (path === '.' || isDir(tree, path)) return { target: path === '.' ? '' : path, kind: 'dir' }
	return null
}

function isDir(tree: LayoutTree, path: string): boolean {
	const prefix = `${path}/`
	for (const f of tree.now) if (f.startsWith(prefix)) return true
	for (const f of tree.moved.keys()) if (f.startsWith(prefix)) return true
	return false
}

/** A relative specifier from folder `fromDir` to `to`, always starting with `./` or `../`. */
export function relativeSpecifier(fromDir: string, to: string): string {
	const rel = posix.relative(fromDir || '.', to || '.')
	if (rel === '') return '.'
	return rel.startsWith('../') || rel === '..' ? rel : `./${rel}`
}
