import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

/**
 * The repository's documentation must stand alone: every relative markdown link and every
 * `docs/<file>.md#<anchor>` a comment or a document names must lead to a file of the repository and a
 * heading in it, and nothing may point to the specs kept outside the repository (their folder, their
 * file names, their numbered sections). `links.test.ts` runs this over the whole tree.
 */

export interface Problem {
	file: string
	line: number
	problem: string
}

/** Folders that are not the repository's own text: dependencies, git, test artifacts, runtime data. */
const SKIPPED_DIRS = new Set(['node_modules', '.git', '.tmp', 'data'])

/** Every text file of the tree under `root` (binary files, those holding a NUL byte, are left out). */
export function textFiles(root: string): string[] {
	const out: string[] = []
	const walk = (dir: string) => {
		for (const name of readdirSync(dir)) {
			const path = join(dir, name)
			const stat = statSync(path)
			if (stat.isDirectory()) {
				if (!SKIPPED_DIRS.has(name)) walk(path)
			} else if (stat.size < 8 * 1024 * 1024 && !readFileSync(path).includes(0)) out.push(path)
		}
	}
	walk(root)
	return out.sort()
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
	return heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\- _]/gu, '')
		.replace(/ /g, '-')
}

/** The anchors of a markdown text's headings (outside code blocks), repeated ones numbered as GitHub does. */
export function anchors(markdown: string): Set<string> {
	const seen = new Map<string, number>()
	const out = new Set<string>()
	let fenced = false
	for (const line of markdown.split('\n')) {
		if (line.startsWith('```')) fenced = !fenced
		const heading = fenced ? null : /^#{1,6} (.*)$/.exec(line)
		if (!heading) continue
		const base = slug(heading[1] ?? '')
		const n = seen.get(base) ?? 0
		seen.set(base, n + 1)
		out.add(n === 0 ? base : `${base}-${n}`)
	}
	return out
}

/** A markdown text without its code blocks and code spans (blank lines kept, so line numbers hold). */
function proseOf(markdown: string): string {
	let fenced = false
	return markdown
		.split('\n')
		.map((line) => {
			if (line.startsWith('```')) {
				fenced = !fenced
				return ''
			}
			return fenced ? '' : line.replace(/`[^`]*`/g, '')
		})
		.join('\n')
}

// Built from parts so that this file does not name what it forbids.
const SHARED = ['..', 'shared'].join('/')
const OUTSIDE_SPEC_FILES = ['ws-commands', 'rest-auth', 'contract'].map((name) => `${name}.md`)
/** A numbered section of a spec (`§7`, `contract §6`), other than an RFC's. */
const SECTION = /(?<!RFC \d+ )\u00a7 ?\d/

const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length

/** Problems of one file's text: references outside the repository, and links that lead nowhere. */
export function check(
	root: string,
	file: string,
	text: string,
	anchorsOf: (path: string) => Set<string>,
): Problem[] {
	const problems: Problem[] = []
	const name = relative(root, file)
	const at = (line: number, problem: string) => problems.push({ file: name, line, problem })
	const report = (index: number, problem: string) => at(lineOf(text, index), problem)
	const targetAt = (path: string, anchor: string | undefined, line: number, what: string) => {
		if (!resolve(path).startsWith(resolve(root))) at(line, `${what} leads outside the repository`)
		else if (!existsSync(path)) at(line, `${what}: no such file`)
		else if (anchor === undefined) return
		else if (!path.endsWith('.md')) at(line, `${what}: an anchor into a file that is not markdown`)
		else if (!anchorsOf(path).has(anchor)) at(line, `${what}: no heading with that anchor`)
	}
	const target = (path: string, anchor: string | undefined, index: number, what: string) =>
		targetAt(path, anchor, lineOf(text, index), what)

	for (const bad of [SHARED, ...OUTSIDE_SPEC_FILES]) {
		for (let i = text.indexOf(bad); i !== -1; i = text.indexOf(bad, i + 1))
			report(i, `names ${bad}, which is outside the repository: point to docs/ instead`)
	}
	for (const m of text.matchAll(new RegExp(SECTION.source, 'g')))
		report(m.index, 'names a numbered section of a spec outside the repository')

	for (const m of text.matchAll(/(?<![\w./-])docs\/([\w./-]+?\.md)(?:#([\w-]+))?/g)) {
		const [reference, path = '', anchor] = m
		target(join(root, 'docs', path), anchor, m.index, reference)
	}

	if (file.endsWith('.md')) {
		// Links of the prose only; it has the text's lines, so an index in it is a line of the text too.
		const prose = proseOf(text)
		for (const m of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
			const link = m[1] ?? ''
			if (/^[a-z]+:/i.test(link)) continue
			const [path = '', anchor] = link.split('#', 2)
			const at = lineOf(prose, m.index)
			if (path !== '') targetAt(join(dirname(file), path), anchor, at, `link ${link}`)
			else if (!anchorsOf(file).has(anchor ?? ''))
				problems.push({ file: name, line: at, problem: `link ${link}: no heading with that anchor here` })
		}
	}
	return problems
}

/** Every problem in the tree under `root`. */
export function checkTree(root: string): Problem[] {
	const cache = new Map<string, Set<string>>()
	const anchorsOf = (path: string) => {
		let found = cache.get(path)
		if (!found) {
			found = anchors(readFileSync(path, 'utf8'))
			cache.set(path, found)
		}
		return found
	}
	const self = resolve(import.meta.dir)
	return textFiles(root)
		.filter((file) => dirname(resolve(file)) !== self)
		.flatMap((file) => check(root, file, readFileSync(file, 'utf8'), anchorsOf))
}
