import { posix } from 'node:path'
import { specifiersIn } from './specifiers'
import {
	CODE_EXTENSIONS,
	type LayoutTree,
	landing,
	type Resolved,
	relativeSpecifier,
	resolveSpecifier,
} from './tree'

/**
 * The rewriting rules of the layout codemod, one function per kind of text. Each rule changes a
 * path only when what it names moves or the file holding it moves, so text the layout leaves alone
 * stays byte for byte, and a second run finds nothing to do.
 */

/** Top-level folders whose paths are written from the repository's root (`src/main.ts`). */
const ROOTS = ['src', 'plugins', 'examples', 'test', 'packages', 'scripts', 'db', 'docs']

export interface FileContext {
	tree: LayoutTree
	/** The file's path now. */
	path: string
	/** The file's path after this run. */
	newPath: string
	/** Old file name -> its new path from the old folder, for names only one file has had (`members-rights.ts`). */
	names: ReadonlyMap<string, string>
}

export interface Rewritten {
	text: string
	changes: number
	errors: string[]
}

type Rule = (text: string, ctx: FileContext, out: Rewritten) => string

/** Text between `layout: keep` and `layout: /keep` (in a comment) is never rewritten: the map's own table. */
const KEEP = /layout: keep[\s\S]*?layout: \/keep/g

function apply(text: string, ctx: FileContext, rules: readonly Rule[], code = false): Rewritten {
	const out: Rewritten = { text, changes: 0, errors: [] }
	if (code) {
		const kept = [...text.matchAll(KEEP)].map((k): [number, number] => [k.index, k.index + k[0].length])
		text = specifiers(text, ctx, out, kept)
	}
	let result = ''
	let at = 0
	for (const kept of text.matchAll(KEEP)) {
		result += rules.reduce((t, rule) => rule(t, ctx, out), text.slice(at, kept.index))
		result += kept[0]
		at = kept.index + kept[0].length
	}
	out.text = result + rules.reduce((t, rule) => rule(t, ctx, out), text.slice(at))
	return out
}

function replace(text: string, out: Rewritten, pattern: RegExp, fn: (...m: string[]) => string): string {
	return text.replace(pattern, (...args: unknown[]) => {
		const groups = args.slice(0, -2).map((g) => (typeof g === 'string' ? g : ''))
		const next = fn(...groups)
		if (next !== groups[0]) out.changes++
		return next
	})
}

const dir = (p: string) => {
	const d = posix.dirname(p)
	return d === '.' ? '' : d
}

/** The specifier for a resolved target after the layout, written in the style of the original. */
function styled(spec: string, found: Resolved, landed: string, fromDir: string): string {
	const slash = spec.endsWith('/') ? '/' : ''
	if (found.kind === 'dir') return relativeSpecifier(fromDir, landed) + slash
	if (found.kind === 'index' && posix.basename(landed).startsWith('index.')) {
		return relativeSpecifier(fromDir, dir(landed)) + slash
	}
	const written = posix.normalize(posix.join(dir(found.target), posix.basename(spec)))
	const asJs = /\.m?js$/.test(spec) && /\.tsx?$/.test(found.target)
	// `./config` for `src/config.ts` that became `src/config/index.ts`: still `./config`, the folder.
	if (written !== found.target && !asJs && posix.basename(landed).startsWith('index.')) {
		const folderSpec = relativeSpecifier(fromDir, dir(landed))
		return folderSpec === '.' ? './index' : folderSpec
	}
	let target = landed
	if (asJs) target = landed.replace(/\.tsx?$/, spec.endsWith('.mjs') ? '.mjs' : '.js')
	else if (found.kind === 'index' || written !== found.target) {
		const ext = [...CODE_EXTENSIONS].sort((a, b) => b.length - a.length).find((e) => landed.endsWith(e))
		if (ext) target = landed.slice(0, -ext.length)
	}
	return relativeSpecifier(fromDir, target)
}

/** A relative specifier from the file, or null when it stays as written. Unresolvable: an error. */
function moveSpecifier(spec: string, ctx: FileContext, out: Rewritten): string {
	const fromDir = dir(ctx.path)
	const found = resolveSpecifier(ctx.tree, fromDir, spec)
	if (!found) {
		out.errors.push(`${ctx.path}: cannot resolve '${spec}'`)
		return spec
	}
	const landed = landing(ctx.tree, found.target)
	const newDir = dir(ctx.newPath)
	if (landed === found.target && newDir === fromDir) return spec
	return styled(spec, found, landed, newDir)
}

/** Every import-like specifier the parser finds, outside kept text: relative ones follow the layout. */
function specifiers(
	text: string,
	ctx: FileContext,
	out: Rewritten,
	kept: readonly [number, number][],
): string {
	let result = ''
	let at = 0
	for (const s of specifiersIn(ctx.path, text)) {
		if (kept.some(([a, b]) => s.start >= a && s.start < b)) continue
		const bare =
			s.url && !s.text.startsWith('.') && !/^[a-z][a-z0-9+.-]*:/i.test(s.text) && !s.text.startsWith('/')
		if (!s.text.startsWith('.') && !bare) continue
		const moved = moveSpecifier(bare ? `./${s.text}` : s.text, ctx, out)
		const next = bare && moved.startsWith('./') ? moved.slice(2) : moved
		if (next === s.text) continue
		out.changes++
		result += text.slice(at, s.start) + next
		at = s.end
	}
	return result + text.slice(at)
}

const HERE = String.raw`import\.meta\.dirname|import\.meta\.dir|__dirname|dirname\(\s*fileURLToPath\(\s*import\.meta\.url\s*\)\s*\)|dirname\(\s*new URL\(\s*import\.meta\.url\s*\)\.pathname\s*\)`
/** `join(import.meta.dir, '..', 'src', 'main.ts')`: literal segments after the file's own folder. */
const FROM_HERE = new RegExp(
	String.raw`(\b(?:join|resolve)\(\s*(?:${HERE}))((?:\s*,\s*(['"])[^'"\n]*\3)*)`,
	'g',
)
const SEGMENT = /(['"])([^'"\n]*)\1/g

const fromHere: Rule = (text, ctx, out) =>
	replace(text, out, FROM_HERE, (all, head, args) => {
		const segments = [...(args ?? '').matchAll(SEGMENT)].map((m) => m[2] ?? '')
		const fromDir = dir(ctx.path)
		const newDir = dir(ctx.newPath)
		const path = posix.normalize(posix.join(fromDir || '.', ...segments))
		if (path.startsWith('..') || (segments.length === 0 && newDir !== fromDir)) {
			if (newDir !== fromDir) out.errors.push(`${ctx.path}: cannot follow '${all}' to the new folder`)
			return all!
		}
		const target = path === '.' ? '' : path
		const landed = landing(ctx.tree, target)
		if (landed === target && newDir === fromDir) return all!
		const q = args?.match(/['"]/)?.[0] ?? "'"
		const rel = posix.relative(newDir || '.', landed || '.') || '.'
		return `${head}${rel
			.split('/')
			.map((s) => `, ${q}${s}${q}`)
			.join('')}`
	})

/** `join(root, 'src', 'main.ts')`: a run of literal segments that spells a path from the root. */
const SEGMENT_RUN = /(['"])[\w.@-]+\1(?:\s*,\s*(['"])[\w.@-]+\2)+/g

const segmentRuns: Rule = (text, ctx, out) =>
	replace(text, out, SEGMENT_RUN, (all) => {
		const parts = [...all!.matchAll(SEGMENT)].map((m) => m[2] ?? '')
		const up = parts.findIndex((p) => p !== '..' && p !== '.')
		const rest = parts.slice(up)
		if (up < 0 || !ROOTS.includes(rest[0] ?? '')) return all!
		const path = rest.join('/')
		const landed = landing(ctx.tree, path)
		if (landed === path) return all!
		const q = all!.startsWith('"') ? '"' : "'"
		return [...parts.slice(0, up), ...landed.split('/')].map((s) => `${q}${s}${q}`).join(', ')
	})

const TOKEN = new RegExp(String.raw`(?<![\w./@-])(\./)?((?:${ROOTS.join('|')})/[\w./-]*)`, 'g')

/**
 * Where a path from the root lands, or null when it stays; tries a file left without its extension,
 * unless the path is written as a folder (`src/app/`) or names a folder that exists now: after the
 * layout `src/app/` is the folder `src/app.ts` became, not that file without its extension.
 */
function landPath(ctx: FileContext, path: string, tail: string): string | null {
	const landed = landing(ctx.tree, path)
	if (landed !== path) return landed
	if (tail.startsWith('/') || [...ctx.tree.now].some((p) => p.startsWith(`${path}/`))) return null
	for (const ext of ['.ts', '.tsx']) {
		const withExt = landing(ctx.tree, path + ext)
		if (withExt !== path + ext && withExt.endsWith(ext)) return withExt.slice(0, -ext.length)
	}
	return null
}

/** `src/plugin-api.ts`, `./src/main.ts`, `src/edge/` written anywhere: from the root. */
const rootPaths: Rule = (text, ctx, out) =>
	replace(text, out, TOKEN, (all, dot, token) => {
		const [, path = '', tail = ''] = token!.match(/^(.*?)([./]*)$/) ?? []
		const landed = landPath(ctx, path, tail)
		return landed === null ? all! : `${dot}${landed}${tail}`
	})

/** `members-rights.ts` written alone, when only one file ever had that name. */
const names: Rule = (text, ctx, out) => {
	if (ctx.names.size === 0) return text
	const alternatives = [...ctx.names.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp)
	const pattern = new RegExp(String.raw`(?<![\w./@-])(${alternatives.join('|')})(?![\w-])`, 'g')
	return replace(text, out, pattern, (_all, name) => ctx.names.get(name!) ?? name!)
}
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** `[text](../src/plugin-api.ts#anchor)` and `[ref]: path`: a link from the document's folder. */
const LINKS = /(\]\(\s*<?|^\s*\[[^\]\n]+\]:\s*)([^)\s>#?]+)/gm

const links: Rule = (text, ctx, out) =>
	replace(text, out, LINKS, (all, head, target) => {
		if (!target || /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('/')) return all!
		const slash = target.endsWith('/') ? '/' : ''
		const path = posix.normalize(posix.join(dir(ctx.path) || '.', target)).replace(/\/$/, '')
		if (path.startsWith('..')) return all!
		const landed = landing(ctx.tree, path)
		const newDir = dir(ctx.newPath)
		if (landed === path && newDir === dir(ctx.path)) return all!
		const rel = posix.relative(newDir || '.', landed || '.') || '.'
		return `${head}${target.startsWith('./') && !rel.startsWith('.') ? './' : ''}${rel}${slash}`
	})

export const rewriteCode = (text: string, ctx: FileContext) =>
	apply(text, ctx, [fromHere, segmentRuns, rootPaths, names], true)
export const rewriteMarkdown = (text: string, ctx: FileContext) => apply(text, ctx, [links, rootPaths, names])
export const rewriteConfig = (text: string, ctx: FileContext) => apply(text, ctx, [rootPaths])
