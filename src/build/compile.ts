import { mkdirSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { consoleAssets } from '../server/console/bundle'
import { BuildError, binaryPlugin, tdjsonToEmbed } from './plugins'

/**
 * `npm run build`: one executable that carries Bun, the app, the migrations, libSQL's native
 * module, tdl's addon and TDLib's libtdjson, for this machine's platform. It runs from an empty
 * folder with no node_modules: `userbot-gateway` serves, `userbot-gateway migrate` migrates.
 * `npm run build -- --outfile PATH` writes it elsewhere.
 */

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
export const DEFAULT_OUTFILE = join(root, '.tmp', 'build', 'userbot-gateway')

/**
 * The modules the app starts as worker threads. Bun does not follow `new Worker(...)`: each is an
 * entrypoint of the build of its own, which the binary carries at its path under the build's root,
 * and the code finds it there through `workerModule` (src/build/worker-module.ts).
 */
export const WORKER_ENTRYPOINTS: readonly string[] = [join(root, 'plugins', 'webhooks', 'writer-thread.ts')]

/**
 * What `new Worker` takes in the binary for each of them, by the `file:` URL of its source: a path
 * relative to the build's root, which Bun looks up among the modules the executable carries.
 */
export function workerSpecifiers(): Record<string, string> {
	return Object.fromEntries(
		WORKER_ENTRYPOINTS.map((file) => [
			pathToFileURL(file).href,
			`./${relative(root, file).split(sep).join('/')}`,
		]),
	)
}

export interface BuildResult {
	outfile: string
	bytes: number
	ms: number
}

export async function buildBinary(outfile = DEFAULT_OUTFILE): Promise<BuildResult> {
	const started = performance.now()
	mkdirSync(dirname(outfile), { recursive: true })
	const webConsole = await consoleAssets().catch((err: unknown) => {
		throw new BuildError(err instanceof Error ? err.message : String(err))
	})
	const result = await Bun.build({
		entrypoints: [join(root, 'src', 'entry', 'main.ts'), ...WORKER_ENTRYPOINTS],
		// The modules' places in the binary are their paths under the repository (workerSpecifiers).
		root,
		target: 'bun',
		minify: true,
		// Precompiled bytecode starts the server in about a third of the time (test/bench/binary-start.ts);
		// Bun offers it for CommonJS output, so the entry has no top-level await.
		bytecode: true,
		format: 'cjs',
		sourcemap: 'none',
		plugins: [binaryPlugin(tdjsonToEmbed(), webConsole, workerSpecifiers())],
		compile: {
			outfile,
			// The binary reads `.env` itself (main.ts), in the server only: the supervisor child, the
			// same executable, must not get the secrets in it.
			autoloadDotenv: false,
			autoloadBunfig: false,
		},
		throw: false,
	})
	if (!result.success) {
		const first = result.logs.find((l) => l.level === 'error') ?? result.logs[0]
		throw new BuildError(`bun build failed: ${first?.message ?? 'no message'}`)
	}
	return { outfile, bytes: statSync(outfile).size, ms: performance.now() - started }
}

function outfileArg(argv: readonly string[]): string | undefined {
	const i = argv.indexOf('--outfile')
	if (i >= 0) return argv[i + 1] ? resolve(argv[i + 1]!) : undefined
	const eq = argv.find((a) => a.startsWith('--outfile='))
	return eq ? resolve(eq.slice('--outfile='.length)) : undefined
}

if (import.meta.main) {
	try {
		const built = await buildBinary(outfileArg(process.argv.slice(2)))
		const mb = (built.bytes / 1024 ** 2).toFixed(0)
		console.log(`built ${built.outfile} (${mb} MB) in ${(built.ms / 1000).toFixed(1)} s`)
	} catch (err) {
		console.error(`build error: ${err instanceof Error ? err.message : String(err)}`)
		process.exit(1)
	}
}
