import { join } from 'node:path'

/**
 * The console's script, built from `ui/main.ts` by Bun's bundler (qrcode included, minified). Run from
 * source it is built here, in memory, when first asked for; `npm run build` builds it once and puts a
 * module holding the text in this one's place (src/build/plugins.ts), so the binary carries it and
 * never bundles at run time.
 */
export async function consoleScript(): Promise<string> {
	const built = await Bun.build({
		entrypoints: [join(import.meta.dir, 'ui', 'main.ts')],
		target: 'browser',
		format: 'esm',
		minify: true,
		sourcemap: 'none',
		throw: false,
	})
	const entry = built.outputs.find((o) => o.kind === 'entry-point')
	if (!built.success || !entry) {
		const first = built.logs.find((l) => l.level === 'error') ?? built.logs[0]
		throw new Error(`the console's script did not build: ${first?.message ?? 'no message'}`)
	}
	return entry.text()
}
