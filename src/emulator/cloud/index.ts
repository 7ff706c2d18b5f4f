import { createHash } from 'node:crypto'
import { lstatSync, mkdirSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connectSocket } from '../../common/transport/socket'
import type { Backend } from '../../runtime/telegram/types'
import { createCloudClient } from './client'
import { type CloudHost, cloudFolder, startHost } from './host'
import { type CloudLock, tryLock } from './lock'
import { connectRemote, type RemoteCloud } from './remote'
import type { CloudLink, CloudLog } from './types'

/**
 * The emulator of a deployment: one emulated cloud for every supervisor child and shard that shares
 * `DATA_DIR/tdlib` (the TDLib folders' storage), kept in its `emulator` folder:
 *
 * - `cloud.lock`: whoever holds it is the cloud host (`lock.ts`);
 * - `cloud.json`: the world, written by the host (`state-file.ts`);
 * - `cloud.sock`: where the host serves it to the other processes (`host.ts`, `protocol.ts`).
 *
 * Each process's backend takes the lock if it is free (it becomes the host, loading the world from
 * `cloud.json`, or from the seed the first time) or connects to the host; when the host goes away
 * (stopped, or killed), the processes left race for the lock again and one of them takes over from
 * what the host last wrote. One machine: the socket does not cross to another.
 */
export interface CloudBackendOptions {
	/** The cloud's folder: `DATA_DIR/tdlib/emulator`. */
	dir: string
	log?: CloudLog
	/** How soon after a change the host writes the world (tests shorten it). */
	flushDelayMs?: number
}

export interface CloudBackend extends Backend {
	/** Whether this process is the cloud host now (tests). */
	readonly hosting: boolean
	/** Closes the link: a host writes the world a last time and lets another process take over. */
	close(): Promise<void>
}

/** Unix socket paths hold ~104 bytes: a longer folder gets its socket in a private temporary folder. */
const MAX_SOCKET_PATH = 100

/** Where the host listens; every process on the machine computes the same from the folder. */
export function cloudSocketPath(dir: string): string {
	const plain = join(dir, 'cloud.sock')
	if (plain.length < MAX_SOCKET_PATH) return plain
	const name = createHash('sha256').update(realpathSync(dir)).digest('hex').slice(0, 16)
	const folder = join(tmpdir(), `ubg-cloud-${name}`)
	mkdirSync(folder, { recursive: true, mode: 0o700 })
	const st = lstatSync(folder)
	const uid = process.getuid?.()
	// Another user's folder (or a link) in the shared temporary folder is no place for our socket.
	if (!st.isDirectory() || (uid !== undefined && st.uid !== uid) || (st.mode & 0o077) !== 0)
		throw new Error(`${folder} is not a private folder of this user: the emulated cloud cannot listen there`)
	return join(folder, 'cloud.sock')
}

const RETRY_MIN_MS = 5
const RETRY_MAX_MS = 50
/** How long a backend waits for a host before it says so in the log (it keeps waiting). */
const SLOW_WARNING_MS = 5_000

/** Hosts the cloud when its lock is free: the host and the lock it holds; undefined when it is held. */
function hostIfFree(
	opts: CloudBackendOptions,
	socket: string,
	log: CloudLog,
): { host: CloudHost; lock: CloudLock } | undefined {
	const held = tryLock(join(opts.dir, 'cloud.lock'))
	if (!held) return undefined
	try {
		return { host: startHost({ dir: opts.dir, socket, log, flushDelayMs: opts.flushDelayMs }), lock: held }
	} catch (err) {
		held.release()
		throw err
	}
}

export function createCloudBackend(opts: CloudBackendOptions): CloudBackend {
	const log: CloudLog = opts.log ?? (() => {})
	let lock: CloudLock | undefined
	let host: CloudHost | undefined
	let remote: RemoteCloud | undefined
	let current: Promise<CloudLink> | undefined
	let closing = false

	/** Hosts the cloud if nobody does, else connects to the host; tries until one of them works. */
	async function obtain(): Promise<CloudLink> {
		cloudFolder(opts.dir)
		const socket = cloudSocketPath(opts.dir)
		const started = Date.now()
		let wait = RETRY_MIN_MS
		let warned = false
		for (;;) {
			if (closing) throw new Error('the emulator backend is closed')
			const hosted = hostIfFree(opts, socket, log)
			if (hosted) {
				;({ host, lock } = hosted)
				log('info', 'emulator cloud: hosting', { pid: process.pid })
				return hosted.host
			}
			const transport = await connectSocket(socket, () =>
				log('warn', 'emulator cloud: an unreadable line from the host dropped'),
			).catch(() => undefined)
			if (transport) {
				remote = connectRemote(transport, log, () => {
					// Forget this host: the next request looks for the new one.
					remote = undefined
					current = undefined
				})
				return remote
			}
			// The lock is held but nobody answers yet: a new host still loading, or a host out of reach.
			if (!warned && Date.now() - started > SLOW_WARNING_MS) {
				warned = true
				log(
					'warn',
					'emulator cloud: waiting for the host, whose lock is held but whose socket does not answer',
					{
						dir: opts.dir,
					},
				)
			}
			await Bun.sleep(wait)
			wait = Math.min(wait * 2, RETRY_MAX_MS)
		}
	}
	const link = () => {
		// A failure (the folder cannot be made, the socket cannot listen) is tried again by the next request.
		current ??= obtain().catch((err) => {
			current = undefined
			log('error', 'emulator cloud: unavailable', { error: (err as Error).message })
			throw err
		})
		return current
	}

	return {
		name: 'emulator',
		createClient: (userbotId, client) => createCloudClient(link, userbotId, client),
		get hosting() {
			return host !== undefined
		},
		async close() {
			closing = true
			await current?.catch(() => undefined)
			remote?.close()
			await host?.close()
			lock?.release()
			host = undefined
			lock = undefined
		},
	}
}
