import { copyFileSync, lstatSync, mkdirSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

/** Says whether a path (relative to the tree's root, `/`-separated) is copied. */
export type Keep = (relative: string, isDirectory: boolean) => boolean

/**
 * Copies the regular files and folders of `from` into `to` (made here, private to the user), those
 * `keep` allows. Links, sockets and the like are left out: a backup holds data, not pointers to it.
 * Returns the number of files copied.
 */
export function copyTree(from: string, to: string, keep: Keep = () => true, relative = ''): number {
	mkdirSync(to, { recursive: true, mode: 0o700 })
	let files = 0
	for (const name of readdirSync(from)) {
		const rel = relative === '' ? name : `${relative}/${name}`
		const source = join(from, name)
		let stat: ReturnType<typeof lstatSync>
		try {
			stat = lstatSync(source)
		} catch (err) {
			// Removed since the listing (a TDLib temporary file, an upload sent and dropped): not data.
			if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue
			throw err
		}
		if (stat.isDirectory()) {
			if (keep(rel, true)) files += copyTree(source, join(to, name), keep, rel)
		} else if (stat.isFile() && keep(rel, false)) {
			try {
				copyFileSync(source, join(to, name))
				files++
			} catch (err) {
				if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
			}
		}
	}
	return files
}
