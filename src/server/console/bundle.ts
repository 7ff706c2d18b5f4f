import { join } from 'node:path'

/**
 * The console's script and style sheet, built from `src/console-ui/main.ts` (which imports `console.css` beside it) by
 * Bun's bundler, qrcode included, minified. Run from source they are built here, in memory, when first
 * asked for; `npm run build` builds them once and puts a module holding the text in this one's place
 * (src/build/plugins.ts), so the binary carries them and never bundles at run time. Nothing here is
 * imported statically but this function, so Deno (REST only, no console) never meets a CSS import.
 */
export interface ConsoleAssets {
	script: string
	style: string
}

export async function consoleAssets(): Promise<ConsoleAssets> {
	const built = await Bun.build({
		entrypoints: [join(import.meta.dir, '..', '..', 'console-ui', 'main.ts')],
		target: 'browser',
		format: 'esm',
		minify: true,
		sourcemap: 'none',
		throw: false,
	})
	const script = built.outputs.find((o) => o.kind === 'entry-point')
	const style = built.outputs.find((o) => o.path.endsWith('.css'))
	if (!built.success || !script || !style) {
		const first = built.logs.find((l) => l.level === 'error') ?? built.logs[0]
		throw new Error(`the console did not build: ${first?.message ?? 'no script or no style sheet'}`)
	}
	return { script: await script.text(), style: await style.text() }
}
