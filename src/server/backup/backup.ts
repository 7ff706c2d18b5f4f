import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { createClient } from '@libsql/client'
import { openDatabaseKey } from '../../common/util/key-crypto'
import { type HeldLock, tryExclusiveClientsLock } from '../../runtime/telegram/clients-lock'
import { copyTree, type Keep } from './copy-tree'
import { locate } from './locations'
import { FORMAT, MANIFEST, type Manifest } from './manifest'

export interface Outcome {
	ok: boolean
	line: string
}

const BUSY_TIMEOUT_MS = 5000
/** TDLib's SQLite database (chats, messages, file records) and its journals. */
const TDLIB_SQLITE = /^db\/db\.sqlite/
/** Half-written files: an upload being received, the emulated cloud's next state. */
const TRANSIENT = /(^|\/)\.partial-|\.tmp$|\.lock$/

const fail = (line: string): Outcome => ({ ok: false, line: `backup: ${line}` })

export function isEmptyOrMissing(path: string): boolean {
	return !existsSync(path) || readdirSync(path).length === 0
}

/**
 * `backup PATH`: a consistent copy of the embedded database (`VACUUM INTO`, a snapshot taken beside
 * a running server), `secrets.json`, and the TDLib folders of the userbots in that copy, written to
 * a sibling folder first and renamed to PATH once whole, so that no half backup ever has its name.
 */
export async function backup(env: Record<string, string | undefined>, target: string): Promise<Outcome> {
	const located = locate(env, 'backup')
	if (!located.ok) return { ok: false, line: located.line }
	const { dataDir, databaseFile } = located.where
	const path = resolve(target)
	if (!isEmptyOrMissing(path)) return fail(`${path} is not empty: give a new or empty folder`)
	if (!existsSync(databaseFile)) return fail(`no database at ${databaseFile}`)
	const secretsFile = join(dataDir, 'secrets.json')
	const dataKey = readDataKey(secretsFile)
	if (dataKey === undefined) return fail(`${secretsFile} is missing or has no data key`)
	const staging = `${path}.partial-${process.pid}`
	rmSync(staging, { recursive: true, force: true })
	mkdirSync(staging, { recursive: true, mode: 0o700 })
	try {
		await snapshot(databaseFile, join(staging, 'app.db'))
		writeFileSync(join(staging, 'secrets.json'), readFileSync(secretsFile), { mode: 0o600 })
		// The key of the copy that is kept, not of the file as read a moment ago.
		const keptKey = readDataKey(join(staging, 'secrets.json'))
		if (keptKey === undefined) return fail(`${secretsFile} changed during the backup: try again`)
		const userbots = await liveUserbots(join(staging, 'app.db'))
		for (const u of userbots) {
			const opens = await openDatabaseKey(keptKey, u.id, u.sealed).then(
				() => true,
				() => false,
			)
			if (!opens)
				return fail(`${secretsFile} does not open the key of userbot ${u.id}: it is not this database's`)
		}
		const { running, files } = copyClients(
			join(dataDir, 'tdlib'),
			join(staging, 'tdlib'),
			userbots.map((u) => u.id),
		)
		const manifest: Manifest = {
			format: FORMAT,
			version: 1,
			created_at: new Date().toISOString(),
			userbots: userbots.map((u) => u.id),
			clients_running: running,
		}
		writeFileSync(join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 })
		// An empty folder given as PATH is replaced whole; a folder made meanwhile makes this fail.
		renameSync(staging, path)
		const clients = running ? 'clients running: binlogs only' : 'clients stopped: whole folders'
		return {
			ok: true,
			line: `backup written: ${path} (database, secrets.json, ${userbots.length} userbots, ${files} TDLib files; ${clients})`,
		}
	} catch (err) {
		return fail(reasonOf(err))
	} finally {
		rmSync(staging, { recursive: true, force: true })
	}
}

function readDataKey(file: string): string | undefined {
	try {
		const parsed = JSON.parse(readFileSync(file, 'utf8')) as { dataKey?: unknown }
		return typeof parsed.dataKey === 'string' && parsed.dataKey !== '' ? parsed.dataKey : undefined
	} catch {
		return undefined
	}
}

/** `VACUUM INTO`: one read transaction of the source (WAL: beside the server's writes), written whole. */
async function snapshot(databaseFile: string, into: string): Promise<void> {
	const client = createClient({ url: `file:${databaseFile}`, timeout: BUSY_TIMEOUT_MS })
	try {
		await client.execute({ sql: 'VACUUM INTO ?', args: [into] })
	} finally {
		client.close()
	}
}

async function liveUserbots(file: string): Promise<Array<{ id: number; sealed: string }>> {
	const client = createClient({ url: `file:${file}` })
	try {
		const rows = await client.execute(
			'SELECT id, encryption_key FROM userbot WHERE deleted_at IS NULL ORDER BY id',
		)
		return rows.rows.map((r) => ({ id: Number(r.id), sealed: String(r.encryption_key) }))
	} finally {
		client.close()
	}
}

/**
 * The folders of the userbots in the copy, and the emulated cloud's. With no client running (the
 * exclusive lock, held until the copy is done, so that none starts meanwhile) each folder is copied
 * whole. While clients run, TDLib writes its SQLite database at any moment and a file copy of it
 * may be torn: only its binlog is copied (the authorization; a copy cut mid-append reads as a crash,
 * whose torn tail TDLib drops), with the gateway's uploads; the cache and downloads are left out.
 */
function copyClients(from: string, to: string, ids: number[]): { running: boolean; files: number } {
	if (!existsSync(from)) return { running: false, files: 0 }
	let lock: HeldLock | undefined
	try {
		lock = tryExclusiveClientsLock(from)
		const running = lock === undefined
		const keep: Keep = (rel, isDirectory) => {
			if (TRANSIENT.test(rel)) return false
			if (!running) return true
			if (isDirectory) return rel !== 'files'
			return !TDLIB_SQLITE.test(rel)
		}
		let files = 0
		for (const id of ids) {
			const folder = join(from, String(id))
			if (existsSync(folder)) files += copyTree(folder, join(to, String(id)), keep)
		}
		const cloud = join(from, 'emulator')
		if (existsSync(cloud)) files += copyTree(cloud, join(to, 'emulator'), (rel) => !TRANSIENT.test(rel))
		return { running, files }
	} finally {
		lock?.release()
	}
}

/** One line of our own: the system's reason without a stack. */
export function reasonOf(err: unknown): string {
	const text = err instanceof Error ? err.message : String(err)
	return (text.split(/\r?\n/)[0] ?? '').trim() || 'unknown error'
}
