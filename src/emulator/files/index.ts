import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type * as Td from 'tdlib-types'
import { fail, type Handlers, type Session } from '../session'
import type { World } from '../world'

/**
 * Files of the emulated cloud: what was uploaded, with its bytes, so that another account can
 * download it (`downloadFile`) as from Telegram's file servers. A client's copy lands in its own
 * TDLib files folder, as TDLib's does, and `getFile`/`deleteFile` see that copy.
 *
 * File ids are the cloud's (one numbering for every account), where TDLib's are per client: an
 * account may use only the ids of files it has (it uploaded them, or they are in a message or a
 * photo of a chat it is in); any other id is unknown to it, as another client's ids are to TDLib.
 */
export interface FileRecord {
	id: number
	name: string
	mime: string
	size: number
	/** The bytes, base64, when small enough to keep in the cloud's state; else read from `source`. */
	data: string
	/** The path it was uploaded from ('' for the seed's files): the uploader's local copy, as in TDLib. */
	source: string
	/** Who uploaded it: their client has it locally from the start. */
	uploaderId: number
}

/** Up to this size the cloud keeps a file's bytes in its state; a bigger one is read where it was. */
const KEEP_BYTES = 1 << 20

const fileStore = (world: World) =>
	world.store<{ byId: Map<number, FileRecord> }>('files', () => ({ byId: new Map() }))

/** Records a file uploaded by `uploaderId` (bytes from `source`, or given), for later downloads. */
export function registerFile(
	world: World,
	f: { id: number; name: string; mime: string; uploaderId: number; source?: string; bytes?: Uint8Array },
): FileRecord {
	const source = f.source ?? ''
	const size = f.bytes ? f.bytes.length : source ? statSync(source).size : 0
	const bytes = f.bytes ?? (source && size <= KEEP_BYTES ? readFileSync(source) : undefined)
	const record: FileRecord = {
		id: f.id,
		name: f.name,
		mime: f.mime,
		size,
		data: bytes ? Buffer.from(bytes).toString('base64') : '',
		source,
		uploaderId: f.uploaderId,
	}
	fileStore(world).byId.set(f.id, record)
	return record
}

export const fileRecord = (world: World, id: number) => fileStore(world).byId.get(id)

/** Every file id a TDLib object holds (a message's content, a chat's photo). */
export function fileIdsIn(value: unknown, out: number[] = []): number[] {
	if (Array.isArray(value)) for (const v of value) fileIdsIn(v, out)
	else if (value && typeof value === 'object') {
		const o = value as Record<string, unknown>
		if (o._ === 'file' && typeof o.id === 'number') out.push(o.id)
		else for (const v of Object.values(o)) fileIdsIn(v, out)
	}
	return out
}

/** True when the account has the file: it uploaded it, a chat it is in shows it, or it is a profile photo. */
function accountHas(world: World, userId: number, record: FileRecord): boolean {
	if (record.uploaderId === userId) return true
	// Profile photos are public.
	for (const user of world.users.values()) if (user.photoFileId === record.id) return true
	for (const chat of world.chatsOf(userId)) {
		if (chat.photoFileId === record.id) return true
		for (const m of chat.messages.values()) if (fileIdsIn(m.content).includes(record.id)) return true
	}
	return false
}

/** The file `id` if this client's account has it; TDLib's words for an id it does not know. */
export function requireFile(s: Session, id: number | undefined): FileRecord {
	const record = id && id > 0 ? fileRecord(s.world, id) : undefined
	if (!record || !accountHas(s.world, s.userId, record)) return fail('Invalid file identifier')
	return record
}

/** Where this client keeps its copy: its files folder, by id (names repeat). */
export const localPath = (s: Session, r: FileRecord) =>
	s.filesDirectory ? join(s.filesDirectory, 'emulated', `${r.id}-${r.name.replace(/[/\\]/g, '_')}`) : ''

/** The file as this client sees it: downloaded here, uploaded from here, or only in the cloud. */
export function fileView(s: Session, r: FileRecord): Td.file {
	const copy = localPath(s, r)
	const own = r.uploaderId === s.userId && r.source !== '' && existsSync(r.source)
	const path = copy && existsSync(copy) ? copy : own ? r.source : ''
	const have = path !== '' || (r.uploaderId === s.userId && r.data !== '')
	const file = fileObject(r, path, have)
	// On its way (downloads.ts): TDLib reports the bytes here so far, and no path until it is whole.
	const running = have ? undefined : s.downloads.get(r.id)
	if (running)
		file.local = {
			...file.local,
			is_downloading_active: true,
			downloaded_prefix_size: running.done,
			downloaded_size: running.done,
		}
	return file
}

/** The file as TDLib writes it; `path`/`have`: this client's copy (none: only in the cloud). */
export function fileObject(r: FileRecord, path = '', have = false): Td.file {
	return {
		_: 'file',
		id: r.id,
		size: r.size,
		expected_size: r.size,
		local: {
			_: 'localFile',
			path,
			can_be_downloaded: true,
			can_be_deleted: path !== '',
			is_downloading_active: false,
			is_downloading_completed: have,
			download_offset: 0,
			downloaded_prefix_size: have ? r.size : 0,
			downloaded_size: have ? r.size : 0,
		},
		remote: {
			_: 'remoteFile',
			id: `emulated-file-${r.id}`,
			unique_id: `u${r.id}`,
			is_uploading_active: false,
			is_uploading_completed: true,
			uploaded_size: r.size,
		},
	}
}

export function bytesOf(r: FileRecord): Buffer {
	if (r.data) return Buffer.from(r.data, 'base64')
	if (r.source && existsSync(r.source)) return readFileSync(r.source)
	// The upload's source is gone (a big file, not kept): the cloud has lost it, as a server error.
	return fail('FILE_ID_INVALID')
}

/** The cloud's file behind a remote id the emulator made (`emulated-file-<id>`, as `fileObject` writes it). */
export function recordOfRemoteId(world: World, remoteId: string): FileRecord | undefined {
	const m = /^emulated-file-(\d{1,15})$/.exec(remoteId)
	return m ? fileRecord(world, Number(m[1])) : undefined
}

export const fileHandlers: Handlers = {
	getFile(s, req) {
		return fileView(s, requireFile(s, req.file_id))
	},
	/**
	 * `getRemoteFile`: the file a remote id names, as this client sees it (TDLib decodes the id
	 * itself: any id it can read gives a file). The emulator reads the ids it made; any other is one
	 * TDLib could not unserialize, in its words. Downloading it still needs the account to have it.
	 */
	getRemoteFile(s, req) {
		const id = req.remote_file_id ?? ''
		if (id === '') fail('Remote file identifier must be non-empty')
		const record = recordOfRemoteId(s.world, id)
		if (!record)
			return fail("Wrong remote file identifier specified: can't unserialize it. Wrong last symbol")
		return fileView(s, record)
	},
}

/**
 * A message's content as `viewerId` sees it: the files someone else uploaded are in the cloud only
 * (no local path) until this client downloads them (`getFile` then says so).
 */
export function contentFor<T>(world: World, content: T, viewerId: number): T {
	const walk = (value: unknown): unknown => {
		if (Array.isArray(value)) return value.map(walk)
		if (!value || typeof value !== 'object') return value
		const o = value as Record<string, unknown>
		if (o._ === 'file' && typeof o.id === 'number') {
			const record = fileRecord(world, o.id)
			return record && record.uploaderId !== viewerId ? fileObject(record) : value
		}
		return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, walk(v)]))
	}
	const kind = (content as { _?: string })._
	return kind === 'messageText' ? content : (walk(content) as T)
}
