import { afterEach, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runToEnd, type ServerProcess, startServerProcess } from './build/server-process'

/**
 * A second server on a busy port: refused by default (exit 2, one line), so that two deployments
 * never split one port's clients between them; shared when every process says `REUSE_PORT=true`
 * (several gateway processes of one deployment, one DATA_DIR and database, one port).
 */
const ROOT = join(import.meta.dir, '..')
const MAIN = join(ROOT, 'src', 'entry', 'main.ts')
const cleanup: Array<() => Promise<unknown> | unknown> = []
afterEach(async () => {
	for (const c of cleanup.splice(0).reverse()) await c()
})

function envOf(dataDir: string, extra: Record<string, string> = {}) {
	return {
		PATH: process.env.PATH ?? '',
		HOME: tmpdir(),
		DATA_DIR: dataDir,
		TDLIB_BACKEND: 'emulator',
		LOG_LEVEL: 'info',
		...extra,
	}
}

async function start(env: Record<string, string>): Promise<ServerProcess> {
	const server = await startServerProcess([process.execPath, '--no-env-file', MAIN], { cwd: ROOT, env })
	cleanup.push(() => server.stop())
	return server
}

function tempDir() {
	const dir = mkdtempSync(join(tmpdir(), 'ubg-port-'))
	cleanup.push(() => rmSync(dir, { recursive: true, force: true }))
	return dir
}

describe('a busy port', () => {
	it('stops a second server with exit 2 and one line', async () => {
		const first = await start(envOf(tempDir(), { PORT: '0' }))
		const port = new URL(first.url).port
		const second = await runToEnd([process.execPath, '--no-env-file', MAIN], {
			cwd: ROOT,
			env: envOf(tempDir(), { PORT: port }),
			timeoutMs: 20_000,
		})
		expect(second.code).toBe(2)
		expect(second.stderr).toBe(`startup error: cannot listen on 127.0.0.1:${port}: port in use\n`)
		// The first is untouched.
		expect((await fetch(`${first.url}/health`)).status).toBe(200)
	}, 40_000)

	it('is shared by processes that all say REUSE_PORT=true, each serving', async () => {
		const dir = tempDir()
		const first = await start(envOf(dir, { PORT: '0', REUSE_PORT: 'true' }))
		const port = new URL(first.url).port
		const second = await start(envOf(dir, { PORT: port, REUSE_PORT: 'true' }))
		expect(second.url).toBe(first.url)
		expect((await fetch(`${first.url}/health`)).status).toBe(200)
		// With the first gone, the port is still served: by the second.
		expect(await first.stop()).toBe(0)
		const health = await fetch(`${second.url}/health`)
		expect(health.status).toBe(200)
		expect(second.proc.exitCode).toBeNull()
	}, 40_000)
})
