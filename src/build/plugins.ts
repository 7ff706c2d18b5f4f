import { createHash } from 'node:crypto'
import { readFileSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { BunPlugin } from 'bun'
import { readMigrationFiles } from 'drizzle-orm/migrator'
import { getTdjson } from 'prebuilt-tdlib'
import type { ConsoleAssets } from '../server/console/bundle'

/**
 * What a naive `bun build --compile` gets wrong, fixed at build time. Both native loaders of our
 * dependencies pick their addon at run time from a name they compute (libsql's platform package,
 * tdl's node-gyp-build lookup), which a bundler cannot follow: in the binary each fails with
 * "Cannot find module". Here the same choice is made once, while building, and written as a plain
 * `require` of the `.node` file, which Bun embeds. The migrations and libtdjson are embedded too.
 */

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const requireFromRoot = createRequire(join(root, 'package.json'))

export class BuildError extends Error {
	override name = 'BuildError'
}

/** Replaces `pattern` in a dependency's source, or stops the build: a silent miss would ship a broken binary. */
function patch(file: string, text: string, pattern: RegExp, replacement: string): string {
	if (!pattern.test(text)) {
		throw new BuildError(
			`${file} no longer looks as the build expects (${pattern}): check the dependency update`,
		)
	}
	return text.replace(pattern, replacement)
}

/** The `.node` file libsql would load on this machine, chosen as its own `requireNative` does. */
export function libsqlAddon(): string {
	const libsqlRequire = createRequire(requireFromRoot.resolve('libsql'))
	const { familySync, GLIBC } = libsqlRequire('detect-libc') as { familySync(): string | null; GLIBC: string }
	const libc = process.platform === 'linux' ? (familySync() === GLIBC ? '-gnu' : '-musl') : ''
	const abi = process.platform === 'win32' ? '-msvc' : ''
	const pkg = `@libsql/${process.platform}-${process.arch}${libc}${abi}`
	return join(dirname(libsqlRequire.resolve(`${pkg}/package.json`)), 'index.node')
}

/** The `.node` file tdl would load on this machine: node-gyp-build's own answer for tdl's folder. */
export function tdlAddon(): string {
	const tdlDir = dirname(requireFromRoot.resolve('tdl/package.json'))
	const gypBuild = createRequire(join(tdlDir, 'package.json'))('node-gyp-build') as {
		path(dir: string): string
	}
	return gypBuild.path(tdlDir)
}

export interface EmbeddedTdjson {
	path: string
	id: string
	bytes: number
}

export function tdjsonToEmbed(): EmbeddedTdjson {
	const path = getTdjson()
	const id = createHash('sha256').update(readFileSync(path)).digest('hex').slice(0, 16)
	return { path, id, bytes: statSync(path).size }
}

/**
 * `console` is the web console's script and style sheet, bundled before the binary: the binary gets them
 * as text in place of src/server/console/bundle.ts, which bundles at run time from sources it does not carry.
 */
export function binaryPlugin(
	tdjson: EmbeddedTdjson,
	console: ConsoleAssets,
	/** compile.ts `workerSpecifiers`: the worker threads' modules the binary carries. */
	workers: Record<string, string> = {},
): BunPlugin {
	const migrations = readMigrationFiles({ migrationsFolder: join(root, 'db', 'migrations') })
	const bundledModule = join(root, 'src', 'build', 'bundled.ts')
	const consoleModule = join(root, 'src', 'server', 'console', 'bundle.ts')
	return {
		name: 'userbot-gateway-binary',
		setup(build) {
			build.onLoad({ filter: /[\\/]node_modules[\\/]libsql[\\/]index\.js$/ }, async (args) => {
				const text = await Bun.file(args.path).text()
				const contents = patch(
					args.path,
					text,
					/function requireNative\(\) \{[\s\S]*?\n\}\n/,
					`function requireNative() {\n  return require(${JSON.stringify(libsqlAddon())});\n}\n`,
				)
				return { contents, loader: 'js' }
			})
			build.onLoad({ filter: /[\\/]node_modules[\\/]tdl[\\/]dist[\\/]addon\.js$/ }, async (args) => {
				const text = await Bun.file(args.path).text()
				const contents = patch(
					args.path,
					text,
					/\(0, node_gyp_build_1\.default\)\(packageDir\)/,
					`require(${JSON.stringify(tdlAddon())})`,
				)
				return { contents, loader: 'js' }
			})
			// drizzle reads the migrations folder at start; the binary has none, so it gets the same list
			// drizzle read from db/migrations while building (same SQL, same hashes, same order).
			build.onLoad({ filter: /[\\/]node_modules[\\/]drizzle-orm[\\/]migrator\.js$/ }, () => ({
				contents: `const migrations = ${JSON.stringify(migrations)}
export function readMigrationFiles() {
	return migrations.map((m) => ({ ...m, sql: [...m.sql] }))
}
`,
				loader: 'js',
			}))
			build.onLoad({ filter: /[\\/]console[\\/]bundle\.ts$/ }, (args) => {
				if (args.path !== consoleModule) return undefined
				return {
					contents: `const assets = ${JSON.stringify(console)}
export async function consoleAssets() {
	return assets
}
`,
					loader: 'ts',
				}
			})
			build.onLoad({ filter: /[\\/]src[\\/]build[\\/]bundled\.ts$/ }, (args) => {
				if (args.path !== bundledModule) return undefined
				return {
					contents: `import tdjson from ${JSON.stringify(tdjson.path)} with { type: 'file' }
export function bundled() {
	return {
		tdjson,
		tdjsonId: ${JSON.stringify(tdjson.id)},
		tdjsonBytes: ${tdjson.bytes},
		workers: ${JSON.stringify(workers)},
	}
}
`,
					loader: 'ts',
				}
			})
		},
	}
}
