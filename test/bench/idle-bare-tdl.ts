/**
 * The baseline of `idle-userbots.ts`: N bare tdl clients (no supervisor, no IPC, no gateway) started
 * in this one process, `concurrency` at a time, each until `authorizationStateWaitPhoneNumber`; then
 * closed and started again from their folders (as a restart restores them). Prints one JSON line:
 * wall and CPU milliseconds (user, system) per client for the first start and for the restart.
 * `databases`: with TDLib's SQLite database (`use_message_database` and the rest, as every client
 * started before docs/capacity.md#start-time), or `none`, as the service now starts a client that
 * has not logged in. Run by `idle-userbots.ts`; alone:
 * `bun test/bench/idle-bare-tdl.ts N CONCURRENCY databases|none`.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type * as tdl from 'tdl'
import { generateDatabaseKey } from '../../src/common/util/key-crypto'
import { configureTdl } from '../../src/runtime/telegram/tdlib'
import { createHeldClient } from '../../src/runtime/telegram/tdlib-client'

export interface StartFigures {
	/** Per client: wall, user CPU and system CPU milliseconds. */
	ms: number
	userMs: number
	sysMs: number
}

const n = Number(process.argv[2] ?? 300)
const concurrency = Number(process.argv[3] ?? 64)
const databases = process.argv[4] !== 'none'
configureTdl()
const dir = mkdtempSync(join(tmpdir(), 'ubg-bench-bare-'))
const keys = Array.from({ length: n }, () => generateDatabaseKey())

function startOne(i: number): Promise<tdl.Client> {
	const root = join(dir, String(i))
	mkdirSync(join(root, 'db'), { recursive: true })
	mkdirSync(join(root, 'files'), { recursive: true })
	// Told networkTypeNone before TDLib has its parameters, as every client of the service.
	const { client } = createHeldClient({
		apiId: 1,
		apiHash: '0123456789abcdef0123456789abcdef',
		databaseDirectory: join(root, 'db'),
		filesDirectory: join(root, 'files'),
		encryptionKey: keys[i] ?? '',
		databases,
	})
	return new Promise((resolve) => {
		client.on('update', (u: { _: string; authorization_state?: { _: string } }) => {
			if (
				u._ === 'updateAuthorizationState' &&
				u.authorization_state?._ === 'authorizationStateWaitPhoneNumber'
			)
				resolve(client)
		})
	})
}

async function round(): Promise<StartFigures> {
	const clients: tdl.Client[] = []
	let next = 0
	const cpu = process.cpuUsage()
	const started = performance.now()
	await Promise.all(
		Array.from({ length: concurrency }, async () => {
			while (next < n) clients.push(await startOne(next++))
		}),
	)
	const ms = performance.now() - started
	const used = process.cpuUsage(cpu)
	await Promise.all(clients.map((c) => c.close()))
	return { ms: ms / n, userMs: used.user / 1000 / n, sysMs: used.system / 1000 / n }
}

const first = await round()
const restart = await round()
rmSync(dir, { recursive: true, force: true })
console.log(JSON.stringify({ n, concurrency, first, restart }))
process.exit(0)
