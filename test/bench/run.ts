/**
 * `npm run bench`: runs every benchmark in this folder one after the other (they would disturb each
 * other in parallel on a small machine) and prints their lines. Each benchmark measures its own
 * baseline in the same run and prints ratios: on a noisy machine a ratio holds, a time does not.
 * `npm run bench -- ws-commands` runs only the named ones. The reliability report (reliability.ts,
 * `npm run reliability`) is not a benchmark: it runs on its own.
 */
import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const only = process.argv.slice(2)
const scripts = readdirSync(here)
	.filter((f) => f.endsWith('.ts') && !['run.ts', 'load.ts', 'ws-load.ts', 'reliability.ts'].includes(f))
	.filter((f) => only.length === 0 || only.some((name) => f.startsWith(name)))
	.sort()

let failed = 0
for (const script of scripts) {
	console.log(`\n== ${script}`)
	const proc = Bun.spawn([process.execPath, join(here, script)], {
		stdout: 'inherit',
		stderr: 'inherit',
		env: { ...process.env, TDLIB_OFFLINE: '1' },
	})
	const code = await proc.exited
	if (code !== 0) {
		failed++
		console.log(`${script} exited with ${code}`)
	}
}
process.exit(failed === 0 ? 0 : 1)
