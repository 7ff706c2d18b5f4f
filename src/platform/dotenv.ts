import { readFileSync } from 'node:fs'
import { parseEnv } from 'node:util'

/**
 * `.env` for the compiled binary and for Deno: read by the server itself rather than by the runtime
 * at start, so the binary's supervisor child (the same executable) never gets it. As Bun does, a
 * variable already in the environment wins over the file. A missing file is no error; an
 * unreadable one is.
 */
export function loadDotenv(file: string, env: Record<string, string | undefined>): void {
	let text: string
	try {
		text = readFileSync(file, 'utf8')
	} catch (err) {
		if ((err as NodeJS.ErrnoException).code === 'ENOENT') return
		throw new DotenvError(`${file}: ${(err as NodeJS.ErrnoException).code ?? 'cannot be read'}`)
	}
	for (const [key, value] of Object.entries(parseEnv(text))) {
		if (env[key] === undefined && value !== undefined) env[key] = value
	}
}

export class DotenvError extends Error {
	override name = 'DotenvError'
}
