import { join } from 'node:path'
import type { Subprocess } from 'bun'

const LOCK_MODULE = join(import.meta.dir, '..', '..', 'src', 'runtime', 'telegram', 'binlog-lock.ts')

/**
 * Another process that locks a TDLib folder as the emulator (and TDLib) does, and holds it until it
 * is killed (SIGKILL: the kernel lets go of the lock). Resolves once the lock is held.
 */
export async function lockHolder(databaseDirectory: string): Promise<Subprocess> {
	const proc = Bun.spawn(
		[
			process.execPath,
			'-e',
			`const { lockFolder } = await import(${JSON.stringify(LOCK_MODULE)}); await lockFolder(${JSON.stringify(databaseDirectory)}); console.log('locked'); setInterval(() => {}, 1000)`,
		],
		{ stdout: 'pipe', stderr: 'inherit' },
	)
	const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader()
	const { value } = await reader.read()
	reader.releaseLock()
	if (!new TextDecoder().decode(value).includes('locked')) {
		proc.kill('SIGKILL')
		throw new Error(`the lock holder did not lock ${databaseDirectory}`)
	}
	return proc
}
