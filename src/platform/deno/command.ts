import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * How `npm run start:deno` runs the Deno entry; the tests and the benchmark run it the same way.
 * Deno comes from the `deno` npm package (its platform package holds the executable). Permissions
 * are named, not `-A`: env, files, network, FFI for libsql's native addon, and sys, which libsql's
 * loader reads to tell glibc from musl. `--sloppy-imports` resolves this codebase's extensionless
 * imports as Bun does; `--no-lock` keeps bun.lock the only lockfile.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..')

export const DENO_ENTRY = join(root, 'src', 'platform', 'deno', 'main.ts')

export const DENO_FLAGS = [
	'run',
	'--no-lock',
	'--no-prompt',
	'--sloppy-imports',
	'--allow-env',
	'--allow-read',
	'--allow-write',
	'--allow-net',
	'--allow-ffi',
	'--allow-sys',
] as const

/** The Deno executable itself (not npm's node wrapper, which would outlive a signal sent to it). */
export function denoExecutable(): string {
	const install = createRequire(join(root, 'package.json'))('deno/install_api.cjs') as {
		runInstall(): string
	}
	return install.runInstall()
}

export function denoCommand(): string[] {
	return [denoExecutable(), ...DENO_FLAGS, DENO_ENTRY]
}
