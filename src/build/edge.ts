import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * `npm run build:edge`: the edge entry (src/platform/edge/main.ts) as one ES module with its dependencies in it
 * (WebAssembly argon2 included), to run with `deno run --allow-net --allow-env` or to upload to a
 * Deno Deploy-style host. It imports only Node's built-in `node:` modules that edge runtimes have
 * (crypto, buffer, net's address check); nodemailer stays out (no SMTP there).
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
export const EDGE_OUTFILE = join(root, '.tmp', 'build', 'edge.js')

/** The modules the bundle may import from outside itself. */
export const EDGE_IMPORTS_ALLOWED = /^node:(crypto|buffer|net|os|path|module)$/

/**
 * `node:fs` in the bundle is a module of our own whose every function throws: the configuration
 * module imports it for DATA_DIR's secrets file, which the edge never reads (secrets come from the
 * environment), and any other use fails loudly instead of needing a file permission.
 */
const noFileSystem: import('bun').BunPlugin = {
	name: 'no-file-system',
	setup(build) {
		build.onResolve({ filter: /^(node:)?fs$/ }, () => ({ path: 'fs', namespace: 'edge-no-fs' }))
		build.onLoad({ filter: /.*/, namespace: 'edge-no-fs' }, () => ({
			loader: 'js',
			contents: NO_FS_MODULE,
		}))
	},
}
const NO_FS_NAMES = [
	'accessSync',
	'closeSync',
	'constants',
	'existsSync',
	'linkSync',
	'mkdirSync',
	'openSync',
	'readFileSync',
	'readSync',
	'renameSync',
	'rmSync',
	'statSync',
	'writeFileSync',
]
const NO_FS_MODULE = `const none = (name) => () => { throw new Error('no file system on the edge: fs.' + name) }
${NO_FS_NAMES.map((n) => (n === 'constants' ? 'export const constants = {}' : `export const ${n} = none('${n}')`)).join('\n')}
export default {}
`

export async function buildEdge(outfile = EDGE_OUTFILE): Promise<{ outfile: string; imports: string[] }> {
	const result = await Bun.build({
		entrypoints: [join(root, 'src', 'platform', 'edge', 'main.ts')],
		target: 'node',
		// Packages resolved as Deno resolves them: libSQL's WebSocket is the runtime's own, not `ws`.
		conditions: ['deno'],
		format: 'esm',
		external: ['nodemailer'],
		plugins: [noFileSystem],
		minify: false,
	})
	if (!result.success || !result.outputs[0])
		throw new Error(`edge build failed: ${result.logs.map((l) => String(l)).join('; ')}`)
	const text = await result.outputs[0].text()
	await Bun.write(outfile, text)
	return { outfile, imports: staticImports(text) }
}

/** The specifiers of the bundle's top-level `import ... from '...'` statements. */
export function staticImports(code: string): string[] {
	const found = new Set<string>()
	for (const m of code.matchAll(/^import\s[^'"]*?from\s*["']([^"']+)["']/gm)) found.add(m[1] ?? '')
	for (const m of code.matchAll(/^import\s*["']([^"']+)["']/gm)) found.add(m[1] ?? '')
	return [...found].sort()
}

if (import.meta.main) {
	const { outfile, imports } = await buildEdge(process.argv[2] ?? EDGE_OUTFILE)
	const foreign = imports.filter((i) => !EDGE_IMPORTS_ALLOWED.test(i))
	if (foreign.length > 0) {
		process.stderr.write(`edge build imports what an edge host lacks: ${foreign.join(', ')}\n`)
		process.exit(1)
	}
	process.stdout.write(`written: ${outfile} (imports ${imports.join(', ') || 'nothing'})\n`)
}
