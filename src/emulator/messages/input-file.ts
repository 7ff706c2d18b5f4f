import { existsSync, statSync } from 'node:fs'
import { basename, extname } from 'node:path'
import type * as Td from 'tdlib-types'
import { bytesOf, type FileRecord, fileRecord, recordOfRemoteId, registerFile } from '../files'
import { fail } from '../session'
import type { World } from '../world'

/**
 * The file a message's media holds, from the client's `InputFile`: a remote id, a file id or a local
 * path, each checked as TDLib's FileManager checks it, registered in the cloud's files.
 */

const REMOTE_ID = /^[A-Za-z0-9_-]{16,}$/

/** Refuses a URL as TDLib's `parse_url` does, with its reason after FileManager's prefix. */
function checkUrl(url: string) {
	const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(url)
	if (scheme && !['http', 'https'].includes(scheme[1]!.toLowerCase()))
		fail('Invalid file HTTP URL specified: Unsupported URL protocol')
	const rest = scheme ? url.slice(scheme[0].length) : url
	const authority = rest.split(/[/?#]/, 1)[0]!
	const hostPort = authority.slice(authority.lastIndexOf('@') + 1)
	const colon = hostPort.startsWith('[')
		? hostPort.indexOf(':', hostPort.indexOf(']'))
		: hostPort.indexOf(':')
	const host = colon === -1 ? hostPort : hostPort.slice(0, colon)
	if (host === '') fail('Invalid file HTTP URL specified: URL host is empty')
	const port = colon === -1 ? '' : hostPort.slice(colon + 1)
	if (port !== '' && !(/^\d{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65_535))
		fail('Invalid file HTTP URL specified: Wrong port number specified in the URL')
	if (!host.startsWith('[') && /[^A-Za-z0-9._~%!$&'()*+,;=\x80-\uffff-]/.test(host))
		fail('Invalid file HTTP URL specified: Unallowed characters in URL host')
}

/** Refuses a remote file identifier TDLib cannot decode; takes one the emulator made or takes as real. */
function checkRemoteId(id: string) {
	if (id === '') fail('Remote file identifier must be non-empty')
	if (/[^A-Za-z0-9_=-]/.test(id))
		fail('Wrong remote file identifier specified: Wrong character in the string')
	if (id.replace(/=+$/, '').length % 4 === 1)
		fail('Wrong remote file identifier specified: Wrong string length')
	if (!REMOTE_ID.test(id))
		fail("Wrong remote file identifier specified: can't unserialize it. Wrong last symbol")
}

const MIME: Record<string, string> = {
	'.png': 'image/png',
	'.jpg': 'image/jpeg',
	'.jpeg': 'image/jpeg',
	'.gif': 'image/gif',
	'.webp': 'image/webp',
	'.mp4': 'video/mp4',
	'.mp3': 'audio/mpeg',
	'.ogg': 'audio/ogg',
	'.pdf': 'application/pdf',
	'.txt': 'text/plain',
}
export const mimeOf = (name: string) => MIME[extname(name).toLowerCase()] ?? 'application/octet-stream'

/**
 * The same bytes again, under the new id the message's copy gets: the sender's own upload keeps its
 * path (its local copy); another's file is the bytes only, never a path of someone else's folder.
 */
function copyOf(world: World, known: FileRecord, id: number, uploader: number): number {
	const own = known.uploaderId === uploader
	const bytes = known.data ? Buffer.from(known.data, 'base64') : own ? undefined : bytesOf(known)
	registerFile(world, { ...known, id, uploaderId: uploader, bytes, source: own ? known.source : '' })
	return known.size
}

/** The file of a message's media from its `InputFile`; `uploader`: who sends it, the files they upload are theirs (files.ts). */
export function storedFile(world: World, input: Td.InputFile$Input | undefined, uploader: number): Td.file {
	const id = world.nextFileId++
	let remoteId = ''
	let path = ''
	let size = 0
	switch (input?._) {
		case 'inputFileRemote': {
			const rid = input.id ?? ''
			// TDLib reads an identifier with a dot as a URL (FileManager::from_persistent_id).
			if (rid.includes('.')) checkUrl(rid)
			else checkRemoteId(rid)
			remoteId = rid
			// A file of the cloud by the remote id it was given: the same bytes again, as Telegram sends them.
			const known = recordOfRemoteId(world, rid)
			if (known) size = copyOf(world, known, id, uploader)
			break
		}
		case 'inputFileId': {
			if (!input.id || input.id <= 0 || input.id >= world.nextFileId) fail('Invalid file identifier')
			remoteId = `emulated-file-${input.id}`
			const known = fileRecord(world, input.id ?? 0)
			if (known) size = copyOf(world, known, id, uploader)
			break
		}
		case 'inputFileLocal': {
			// TDLib's FileManager::check_local_location, in its order.
			path = input.path ?? ''
			if (!path) fail('File must have non-empty path')
			if (!existsSync(path)) fail("Can't find real file path")
			const stat = statSync(path)
			if (!stat.isFile()) fail('File must be a regular file')
			if (stat.size === 0) fail('File must be non-empty')
			size = stat.size
			remoteId = `emulated-file-${id}`
			registerFile(world, {
				id,
				name: basename(path),
				mime: mimeOf(path),
				uploaderId: uploader,
				source: path,
			})
			break
		}
		case undefined:
			fail('InputFile is not specified')
			break
		default:
			fail(`emulator: ${input?._} is not supported`)
	}
	return {
		_: 'file',
		id,
		size,
		expected_size: size,
		local: {
			_: 'localFile',
			path,
			can_be_downloaded: true,
			can_be_deleted: path !== '',
			is_downloading_active: false,
			is_downloading_completed: path !== '',
			download_offset: 0,
			downloaded_prefix_size: size,
			downloaded_size: size,
		},
		remote: {
			_: 'remoteFile',
			id: remoteId,
			unique_id: `u${id}`,
			is_uploading_active: false,
			is_uploading_completed: true,
			uploaded_size: size,
		},
	}
}
