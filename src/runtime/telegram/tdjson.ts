import { mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { getTdjson } from 'prebuilt-tdlib'
import { type Bundled, bundled } from '../../build/bundled'

/**
 * The libtdjson TDLib is loaded from. From source: prebuilt-tdlib's file in node_modules. In the
 * compiled binary the library is embedded, and dlopen cannot map a file that lives inside another
 * one, so the first start copies it to `cacheDir` under a name made from its hash; later starts,
 * and every later child, find the copy and use it.
 */
export async function tdjsonPath(
	cacheDir: string | undefined,
	embedded: Bundled | null = bundled(),
): Promise<string> {
	if (!embedded) return getTdjson()
	if (!cacheDir) throw new Error('the compiled binary needs a cache folder for libtdjson')
	return extractTdjson(embedded, cacheDir)
}

const PREFIX = 'libtdjson-'

export async function extractTdjson(embedded: Bundled, cacheDir: string): Promise<string> {
	const target = join(cacheDir, `${PREFIX}${embedded.tdjsonId}.so`)
	if (sizeOf(target) === embedded.tdjsonBytes) return target
	mkdirSync(cacheDir, { recursive: true, mode: 0o700 })
	// Written under a name of its own, then renamed: a crash, or a second process starting at the
	// same moment, never leaves a half-written library under the name that is loaded.
	const partial = `${target}.${process.pid}.partial`
	try {
		// Bun.file reads inside the binary, where node:fs's copyFile finds nothing.
		await Bun.write(partial, Bun.file(embedded.tdjson))
		if (sizeOf(partial) !== embedded.tdjsonBytes) {
			throw new Error(`copying libtdjson to ${cacheDir} was cut short (is the disk full?)`)
		}
		renameSync(partial, target)
	} finally {
		rmSync(partial, { force: true })
	}
	removeStale(cacheDir, target)
	return target
}

/**
 * Copies an older build left behind (58 MB each); one a running process still maps stays mapped.
 * Another process's copy in progress (`.partial`) is left alone.
 */
function removeStale(cacheDir: string, keep: string) {
	for (const name of readdirSync(cacheDir)) {
		const path = join(cacheDir, name)
		if (name.startsWith(PREFIX) && name.endsWith('.so') && path !== keep) rmSync(path, { force: true })
	}
}

function sizeOf(path: string): number | null {
	try {
		return statSync(path).size
	} catch {
		return null
	}
}
