/**
 * `npm run layout`: the folder layout of docs/architecture.md#the-folders, applied to this working
 * tree (scripts/layout/map.ts says what goes where). Moves with `git mv` what is not moved yet and
 * rewrites every path that names a moved file: relative imports, `new URL(..., import.meta.url)`,
 * `join(import.meta.dir, ...)`, paths from the root in code, package.json, tsconfig, biome.json and
 * the CI script, and links in Markdown. A second run changes nothing. A relative import it cannot
 * resolve stops it before it writes anything (exit 1). A loose file of src/ or of the emulator's
 * top that the map does not name (added by a branch merged since) is listed as a warning: the layout
 * still runs, and a line in the map places it on the next run. `--dry-run` only says what it would do.
 */
import { resolve } from 'node:path'
import { LAYOUT, LAYOUT_OWN_FILES, LOOSE_FOLDERS } from './layout/map'
import { runLayout } from './layout/run'
import { LayoutError } from './layout/tree'

const dryRun = process.argv.includes('--dry-run')
try {
	const report = runLayout({
		root: resolve(import.meta.dir, '..'),
		map: LAYOUT,
		exclude: LAYOUT_OWN_FILES,
		loose: LOOSE_FOLDERS,
		dryRun,
	})
	const verb = dryRun ? 'would ' : ''
	for (const m of report.moved) console.log(`${verb}move ${m.from} -> ${m.to}`)
	for (const r of report.rewritten) console.log(`${verb}rewrite ${r.path} (${r.changes} path(s))`)
	for (const m of report.missing) console.log(`skipped ${m.from} -> ${m.to}: neither exists`)
	if (report.unmapped.length > 0) {
		console.warn(
			`warning: ${report.unmapped.length} loose file(s) the map does not place (add a line to scripts/layout/map.ts, moved or staying, and run it again):`,
		)
		for (const f of report.unmapped) console.warn(`  ${f}`)
	}
	if (!dryRun) console.log(report.tidied)
	console.log(
		`${report.moved.length} moved, ${report.done} already in place, ${report.rewritten.length} file(s) rewritten`,
	)
} catch (err) {
	if (!(err instanceof LayoutError)) throw err
	console.error(`layout: ${err.message}`)
	process.exit(1)
}
