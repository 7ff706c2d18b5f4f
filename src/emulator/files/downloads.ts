import {
	closeSync,
	existsSync,
	mkdirSync,
	openSync,
	readSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs'
import { dirname } from 'node:path'
import { fail, type Handlers, OK, type RunningDownload, type Session } from '../session'
import { bytesOf, type FileRecord, fileView, localPath, requireFile } from './index'

/**
 * Downloads from the emulated cloud, as TDLib runs them: the file comes in parts, each reported
 * with `updateFile` (`is_downloading_active`, a growing `downloaded_size`), and the last one with
 * the whole file at its local path (`is_downloading_completed`). One download per file and client:
 * a second `downloadFile` joins the running one. `synchronous: false` answers the file as it is
 * once the download has started; `synchronous: true` answers when it ends, or fails `File download
 * has failed or was canceled` when `deleteFile` cancels it first.
 *
 * The cloud is local, so a part takes one turn of the event loop; `emulatorHoldDownloads {hold}`
 * (tests) makes every download wait after each part until `hold: false`, so a test sees a download
 * still running without racing a clock.
 */

/** The emulated cloud sends a file in parts of this size (TDLib's own parts are 128 KiB to 1 MiB). */
export const DOWNLOAD_PART_BYTES = 128 * 1024

/** The next part, one turn later; while downloads are held, not before they are let go. */
function nextPart(s: Session, running: RunningDownload): Promise<void> {
	return new Promise((resolve) => {
		running.resume = resolve
		if (s.downloadHold.held) s.downloadHold.waiting.push(resolve)
		else setImmediate(resolve)
	})
}

/** `emulatorHoldDownloads`: holds every download of this client after its current part, or lets them go. */
export function holdDownloads(s: Session, hold: boolean): void {
	s.downloadHold.held = hold
	if (hold) return
	const waiting = s.downloadHold.waiting.splice(0)
	for (const resume of waiting) resume()
}

function start(s: Session, record: FileRecord, path: string): RunningDownload {
	// A file the cloud has lost fails the request itself, before anything is reported.
	const bytes = bytesOf(record)
	const running: RunningDownload = { done: 0, cancelled: false, finished: Promise.resolve() }
	s.downloads.set(record.id, running)
	running.finished = (async () => {
		running.done = Math.min(bytes.length, DOWNLOAD_PART_BYTES)
		while (running.done < bytes.length) {
			s.emit({ _: 'updateFile', file: fileView(s, record) })
			await nextPart(s, running)
			if (running.cancelled) fail('File download has failed or was canceled')
			running.done = Math.min(bytes.length, running.done + DOWNLOAD_PART_BYTES)
		}
		mkdirSync(dirname(path), { recursive: true })
		writeFileSync(path, bytes)
		s.downloads.delete(record.id)
		s.emit({ _: 'updateFile', file: fileView(s, record) })
	})()
	// Nobody may wait for it (`synchronous: false`): its cancellation is then no unhandled failure.
	running.finished.catch(() => undefined)
	return running
}

export const downloadHandlers: Handlers = {
	async downloadFile(s, req) {
		const priority = req.priority ?? 0
		if (priority < 1 || priority > 32) fail('Priority must be between 1 and 32')
		if ((req.offset ?? 0) < 0) fail('Download offset must be non-negative')
		if ((req.limit ?? 0) < 0) fail('Download limit must be non-negative')
		const record = requireFile(s, req.file_id)
		const path = localPath(s, record)
		// Whole on this client's disk already (downloaded, or its own upload), or nowhere to put it.
		const now = fileView(s, record)
		if (!path || (now.local.is_downloading_completed && now.local.path !== '')) return now
		const running = s.downloads.get(record.id) ?? start(s, record, path)
		if (req.synchronous) await running.finished
		return fileView(s, record)
	},
	/**
	 * `readFilePart`: bytes of a file this client has whole (downloaded, or its own upload), read from
	 * its local copy, as TDLib reads its file cache; `count` 0 reads to the end, past the end reads
	 * nothing, a count past the end is refused. A file not (fully) on this client's disk fails with TDLib's words.
	 */
	readFilePart(s, req) {
		const offset = req.offset ?? 0
		const wanted = req.count ?? 0
		if (offset < 0) fail('Parameter offset must be non-negative')
		if (wanted < 0) fail('Parameter count must be non-negative')
		const view = fileView(s, requireFile(s, req.file_id))
		const path = view.local.path
		if (!view.local.is_downloading_completed || !path || !existsSync(path))
			fail('There is not enough downloaded bytes in the file to read')
		const size = statSync(path).size
		// As TDLib: a count past the bytes there is an error; 0 reads what there is (nothing past the end).
		if (wanted > 0 && size - offset < wanted) fail('There is not enough downloaded bytes in the file to read')
		const count = Math.max(0, wanted || size - offset)
		const bytes = Buffer.alloc(count)
		const fd = openSync(path, 'r')
		try {
			let done = 0
			while (done < count) {
				const n = readSync(fd, bytes, done, count - done, offset + done)
				if (n === 0) break
				done += n
			}
		} finally {
			closeSync(fd)
		}
		return { _: 'data', data: bytes.toString('base64') }
	},
	/** Removes this client's copy; a download on its way is cancelled, as TDLib's `deleteFile` does. */
	deleteFile(s, req) {
		const record = requireFile(s, req.file_id)
		const running = s.downloads.get(record.id)
		if (running) {
			running.cancelled = true
			s.downloads.delete(record.id)
			running.resume?.()
		}
		const path = localPath(s, record)
		if (path && existsSync(path)) rmSync(path, { force: true })
		s.emit({ _: 'updateFile', file: fileView(s, record) })
		return OK
	},
}
