import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative } from 'node:path'
import ts from 'typescript'

/**
 * `npm run build:client`: packages/client/dist, compiled ESM with its declarations, from the sources
 * the repository runs (packages/client/src/ws/, the src/common/wire/ it imports, and packages/client/src/). The sources
 * are copied to a staging folder as one flat tree, with the `.js` endings Node's ESM resolution
 * needs, and compiled there by TypeScript; TDLib's types (from @prebuilt-tdlib/types) go in as a module of the package, so a
 * consumer adds nothing to type-check. Then `npm pack packages/client` makes the tarball.
 */

const pkg = join(import.meta.dir, '..')
const root = join(pkg, '..', '..')
const stage = join(root, '.tmp', 'client-stage')
const dist = join(pkg, 'dist')

/** Staged name → source file. */
function sources(): Map<string, string> {
	const files = new Map<string, string>()
	for (const f of readdirSync(join(pkg, 'src', 'ws')).filter((f) => f.endsWith('.ts')))
		files.set(join('ws', f), join(pkg, 'src', 'ws', f))
	// The protocol's own module, which the client imports rather than copies (src/common/wire/).
	for (const f of ['close.ts', 'envelope.ts', 'limits.ts', 'server-paths.ts'])
		files.set(join('wire', f), join(root, 'src', 'common', 'wire', f))
	// The stdio MCP server (`mcp`, the package's bin) beside the library: cli.ts and mcp.ts.
	for (const f of ['index.ts', 'rest.ts', 'rest-types.ts', 'cli.ts', 'mcp.ts'])
		files.set(f, join(pkg, 'src', f))
	for (const f of readdirSync(join(pkg, 'src', 'generated')))
		files.set(join('generated', f), join(pkg, 'src', 'generated', f))
	return files
}

/** Relative imports get `.js`; the repository's paths to src/common/wire/ become the staged ones. */
function rewrite(text: string, staged: string): string {
	return text
		.replace(/(from\s+'|import\(')(\.{1,2}\/[^']*)'/g, (_, lead: string, spec: string) => {
			let target = spec.replace(
				/^(\.\.\/)+src\/common\/wire\//,
				`${relative(dirname(staged), 'wire') || '.'}/`,
			)
			if (!target.startsWith('.')) target = `./${target}`
			return `${lead}${target}.js'`
		})
		.replace(/from 'tdlib-types'/g, `from '${relative(dirname(staged), '.') || '.'}/tdlib-types.js'`)
}

/**
 * @prebuilt-tdlib/types declares an ambient module of all of TDLib (1.7 MB, a minute of a consumer's
 * type check); the package ships the part its commands' results reach, as a module of its own.
 */
function tdlibTypes(used: Iterable<string>): string {
	const require = createRequire(join(root, 'package.json'))
	const text = readFileSync(require.resolve('@prebuilt-tdlib/types/tdlib-types.d.ts'), 'utf8')
	const file = ts.createSourceFile('tdlib-types.d.ts', text, ts.ScriptTarget.ES2022, true)
	const declared = new Map<string, ts.TypeAliasDeclaration>()
	for (const statement of file.statements) {
		if (!ts.isModuleDeclaration(statement) || !statement.body || !ts.isModuleBlock(statement.body)) continue
		for (const d of statement.body.statements) if (ts.isTypeAliasDeclaration(d)) declared.set(d.name.text, d)
	}
	if (!declared.size) throw new Error('@prebuilt-tdlib/types no longer looks as the build expects')
	const kept = new Set<string>()
	const queue = [...used]
	while (queue.length) {
		const name = queue.pop()!
		const declaration = declared.get(name)
		if (!declaration || kept.has(name)) continue
		kept.add(name)
		const visit = (n: ts.Node): void => {
			if (ts.isTypeReferenceNode(n) && ts.isIdentifier(n.typeName)) queue.push(n.typeName.text)
			ts.forEachChild(n, visit)
		}
		visit(declaration.type)
	}
	const header = text.slice(0, text.indexOf('declare module'))
	const body = [...declared.values()].filter((d) => kept.has(d.name.text)).map((d) => d.getFullText())
	return `${header}// The part of it @userbot-gateway/client's types reach, as a module.\n${body.join('\n')}\n`
}

/** The `Td.X` names the generated types use. */
function tdlibNamesUsed(): Set<string> {
	const text = readFileSync(join(pkg, 'src', 'generated', 'commands.ts'), 'utf8')
	return new Set([...text.matchAll(/\bTd\.([A-Za-z0-9$]+)/g)].map((m) => m[1]!))
}

export function buildClientPackage(): string {
	rmSync(stage, { recursive: true, force: true })
	rmSync(dist, { recursive: true, force: true })
	for (const [staged, source] of sources()) {
		const out = join(stage, staged)
		mkdirSync(dirname(out), { recursive: true })
		writeFileSync(out, rewrite(readFileSync(source, 'utf8'), staged))
	}
	writeFileSync(join(stage, 'tdlib-types.d.ts'), tdlibTypes(tdlibNamesUsed()))
	writeFileSync(
		join(stage, 'tsconfig.json'),
		JSON.stringify({
			compilerOptions: {
				target: 'ES2022',
				module: 'NodeNext',
				moduleResolution: 'NodeNext',
				// DOM for fetch and its kin while compiling; the consumer test checks the declarations without it.
				lib: ['ES2022', 'DOM'],
				types: [],
				strict: true,
				declaration: true,
				outDir: dist,
				rootDir: stage,
				skipLibCheck: false,
				removeComments: false,
			},
			include: ['**/*.ts'],
		}),
	)
	const tsc = Bun.spawnSync([join(root, 'node_modules', '.bin', 'tsc'), '-p', stage], { stdout: 'pipe' })
	if (tsc.exitCode !== 0) throw new Error(`tsc failed:\n${tsc.stdout.toString()}`)
	cpSync(join(stage, 'tdlib-types.d.ts'), join(dist, 'tdlib-types.d.ts'))
	return dist
}

if (import.meta.main) console.log(`built ${relative(process.cwd(), buildClientPackage())}`)
