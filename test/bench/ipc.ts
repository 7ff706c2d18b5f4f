import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createLogger } from '../../src/common/util/logger'
import { SupervisorClient } from '../../src/runtime/supervisor/client'

/**
 * IPC round trips to the emulator through a real supervisor child, per transport: one request at
 * a time (latency) and many in flight (throughput). `bun test/bench/ipc.ts`.
 */
const SEQUENTIAL = 20_000
const CONCURRENT = 100_000

for (const transport of ['socket', 'ipc'] as const) {
	const dataDir = mkdtempSync(join(tmpdir(), 'ubg-bench-'))
	const rt = new SupervisorClient({
		backend: 'emulator',
		dataDir,
		transport,
		commandTimeoutMs: 30_000,
		log: createLogger('warn'),
	})
	await rt.start()
	await rt.startClient(1, { encryptionKey: '' })
	for (let i = 0; i < 2_000; i++) await rt.invoke(1, { _: 'testCallEmpty' })
	let t = performance.now()
	for (let i = 0; i < SEQUENTIAL; i++) await rt.invoke(1, { _: 'testCallEmpty' })
	const seq = SEQUENTIAL / ((performance.now() - t) / 1000)
	t = performance.now()
	await Promise.all(Array.from({ length: CONCURRENT }, () => rt.invoke(1, { _: 'testCallEmpty' })))
	const conc = CONCURRENT / ((performance.now() - t) / 1000)
	console.log(`${transport}: sequential ${Math.round(seq)} req/s, concurrent ${Math.round(conc)} req/s`)
	await rt.close()
	rmSync(dataDir, { recursive: true, force: true })
}
