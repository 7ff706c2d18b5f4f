import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createEmulatorBackend, SEED_CHATS } from '../../src/emulator'
import { createCloudBackend } from '../../src/emulator/cloud'
import { encodeWorld } from '../../src/emulator/cloud/world-state'
import { createSeededWorld } from '../../src/emulator/seed'
import type { Backend, BackendClient, TdRequest } from '../../src/runtime/telegram/types'

/**
 * What keeping the emulated cloud costs the emulator's path: requests per second to one logged-in
 * client, `IN_FLIGHT` at a time, reads (`getOption`), then writes (the account's default
 * auto-delete time, a change of the world that does not grow it), against the same load on a world
 * in this process's memory only (the baseline, measured in the same run):
 *
 * - host: this process holds the cloud (a supervisor child that hosts it: the default, one child),
 *   writing it to `cloud.json` within 100 ms of a change;
 * - remote: another process hosts it, this one reaches it over `cloud.sock` (a child that does not).
 *
 * Then the cost of one write of a world that kept many messages (every one sent is kept: the cost
 * of a write grows with them, and the host spaces its writes by it). `bun test/bench/emulator-cloud.ts`
 * (BENCH_SECONDS per setup, default 5).
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const IN_FLIGHT = 256

async function loggedIn(backend: Backend, folder: string): Promise<BackendClient> {
	mkdirSync(folder, { recursive: true })
	const client = backend.createClient(1, {
		databaseDirectory: folder,
		filesDirectory: folder,
		encryptionKey: '',
	})
	await client.invoke({ _: 'setAuthenticationPhoneNumber', phone_number: '9996611111' } as TdRequest)
	await client.invoke({ _: 'checkAuthenticationCode', code: '11111' } as TdRequest)
	return client
}

const READ = { _: 'getOption', name: 'my_id' } as unknown as TdRequest
/** A change of the world that does not grow it: the account's default auto-delete time. */
const WRITES = [86_400, 0].map(
	(time) =>
		({
			_: 'setDefaultMessageAutoDeleteTime',
			message_auto_delete_time: { _: 'messageAutoDeleteTime', time },
		}) as unknown as TdRequest,
)
const GROWN_MESSAGES = 20_000

/** Requests per second for `SECONDS`, `IN_FLIGHT` outstanding. */
async function drive(client: BackendClient, writes: boolean): Promise<number> {
	let count = 0
	let running = true
	const lane = async (n: number) => {
		for (let i = n; running; i++) {
			await client.invoke(writes ? (WRITES[i % 2] as TdRequest) : READ)
			count++
			// Requests come from a socket: each turn of the event loop takes a batch (and timers run).
			await new Promise((resolve) => setImmediate(resolve))
		}
	}
	const warm = Array.from({ length: IN_FLIGHT }, (_, n) => lane(n))
	await Bun.sleep(500)
	const start = performance.now()
	const before = count
	await Bun.sleep(SECONDS * 1000)
	const rate = (count - before) / ((performance.now() - start) / 1000)
	running = false
	await Promise.all(warm)
	return rate
}

const root = mkdtempSync(join(tmpdir(), 'ubg-bench-cloud-'))
try {
	const inMemory = await loggedIn(createEmulatorBackend(createSeededWorld()), join(root, 'memory'))
	const memoryReads = await drive(inMemory, false)
	const memory = await drive(inMemory, true)

	const hostDir = join(root, 'host', 'tdlib', 'emulator')
	const hosting = createCloudBackend({ dir: hostDir })
	const hostClient = await loggedIn(hosting, join(root, 'host', 'c'))
	const hostReads = await drive(hostClient, false)
	const host = await drive(hostClient, true)
	await hosting.close()

	const remoteDir = join(root, 'remote', 'tdlib', 'emulator')
	const other = Bun.spawn([process.execPath, join(import.meta.dir, 'emulator-cloud', 'host.ts'), remoteDir], {
		stdin: 'pipe',
		stdout: 'pipe',
		stderr: 'inherit',
	})
	// It holds the cloud once it says so.
	const reader = other.stdout.getReader()
	let said = ''
	while (!said.includes('hosting')) {
		const { value, done } = await reader.read()
		if (done) throw new Error('the host process ended')
		said += new TextDecoder().decode(value)
	}
	const reaching = createCloudBackend({ dir: remoteDir })
	const remoteClient = await loggedIn(reaching, join(root, 'remote', 'c'))
	const remoteReads = await drive(remoteClient, false)
	const remote = await drive(remoteClient, true)
	if (reaching.hosting) throw new Error('the other process was not the host')
	await reaching.close()
	other.stdin.end()
	await other.exited

	// What one write costs on a world that has kept many messages.
	const grown = createSeededWorld()
	const group = grown.groups.get(SEED_CHATS.basicGroup)!
	for (let i = 0; i < GROWN_MESSAGES; i++)
		grown.addMessage(group, 1001, {
			_: 'messageText',
			text: { _: 'formattedText', text: `message ${i}`, entities: [] },
		})
	const t = performance.now()
	const bytes = encodeWorld(grown).length
	const encodeMs = performance.now() - t

	const line = (name: string, reads: number, mixed: number) =>
		console.log(
			`${name}: reads ${Math.round(reads)} req/s (${(reads / memoryReads).toFixed(2)}), writes ${Math.round(mixed)} req/s (${(mixed / memory).toFixed(2)})`,
		)
	line('memory only (baseline)', memoryReads, memory)
	line('host (this process keeps cloud.json)', hostReads, host)
	line('remote (over cloud.sock)', remoteReads, remote)
	console.log(
		`one write of a world with ${GROWN_MESSAGES} more messages: ${(bytes / 1e6).toFixed(1)} MB, encoded in ${encodeMs.toFixed(0)} ms`,
	)
} finally {
	rmSync(root, { recursive: true, force: true })
}
