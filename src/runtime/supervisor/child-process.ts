import { fileURLToPath } from 'node:url'
import type { Subprocess } from 'bun'
import { bundled } from '../../build/bundled'
import type { Transport } from '../../common/transport'
import { createIpcParentTransport } from '../../common/transport/ipc'
import type { Logger } from '../../common/util/logger'

/**
 * The hidden subcommand the server starts its supervisor child with. The supervisor names it and the
 * command line (src/entry/cli.ts) accepts it, so the supervisor never imports the entry's command line.
 */
export const SUPERVISOR_CHILD = 'supervisor-child'

/** Only what the child needs: the server's own secrets stay in the parent. */
const PASSED_ENV = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ']
/**
 * Bun loads the working folder's `.env` into every process it starts, secrets and all; the child
 * needs none of them, so it is told not to.
 */
export const CHILD_BUN_FLAGS = ['--no-env-file'] as const

/**
 * How the child is started: the server's own entry with the hidden `supervisor-child` subcommand.
 * From source that is Bun running `src/entry/main.ts`; in the compiled binary there is no source file, so
 * the binary starts itself (it is built not to read `.env`, which keeps the secrets out of it).
 */
export function childCommand(): string[] {
	if (bundled()) return [process.execPath, SUPERVISOR_CHILD]
	const entry = fileURLToPath(new URL('../../entry/main.ts', import.meta.url))
	return [process.execPath, ...CHILD_BUN_FLAGS, entry, SUPERVISOR_CHILD]
}

export interface SpawnOptions {
	transport: 'socket' | 'ipc'
	env: Record<string, string>
	log: Logger
}

export interface Spawned {
	proc: Subprocess
	/** Set for the `ipc` transport; the socket transport arrives through the listener. */
	ipc?: Transport
}

async function forwardLines(stream: ReadableStream<Uint8Array>, write: (line: string) => void) {
	const decoder = new TextDecoder()
	let rest = ''
	for await (const chunk of stream) {
		const lines = (rest + decoder.decode(chunk, { stream: true })).split('\n')
		rest = lines.pop() ?? ''
		for (const line of lines) if (line.trim()) write(line)
	}
	if (rest.trim()) write(rest)
}

/** Starts one supervisor child; its stdout and stderr go to the log line by line. */
export function spawnChild(opts: SpawnOptions): Spawned {
	const env: Record<string, string> = {}
	for (const key of PASSED_ENV) {
		const value = process.env[key]
		if (value !== undefined) env[key] = value
	}
	Object.assign(env, opts.env, { SUPERVISOR_TRANSPORT: opts.transport })
	const ipc = opts.transport === 'ipc' ? createIpcParentTransport() : undefined
	const proc = Bun.spawn(childCommand(), {
		env,
		stdin: 'ignore',
		stdout: 'pipe',
		stderr: 'pipe',
		...(ipc ? { ipc: ipc.ipc, serialization: 'json' as const } : {}),
	})
	ipc?.attach(proc)
	const log = opts.log.child({ supervisorPid: proc.pid })
	void forwardLines(proc.stdout, (line) => log.info('supervisor stdout', { line })).catch(() => undefined)
	void forwardLines(proc.stderr, (line) => log.warn('supervisor stderr', { line })).catch(() => undefined)
	return { proc, ipc: ipc?.transport }
}
