import { TdError } from 'userbot-gateway/plugin'
import { LIFECYCLE_METHODS } from './auth-states'
import type { Row } from './clients'
import type { FileCache } from './file-cache'
import { type FileInvoke, type FileOutcome, fetchFile } from './file-download'
import type { LifecycleParts } from './parts'

/** Reads a file of the userbot's account (the files route), its client started first if need be. */
export async function readFile(
	parts: LifecycleParts,
	cache: FileCache,
	row: Row,
	fileId: number,
): Promise<FileOutcome> {
	const { ctx, clients } = parts
	const userbotId = row.id
	const runtime = clients.runtime()
	await clients.ensure(row)
	const { dataDir, commandTimeoutMs } = ctx.config
	const { fileMaxBytes, fileDownloadWaitMs } = parts.limits
	// TDLib's own wait may be longer than ours: a download left running is still TDLib's to finish.
	const timeoutMs = Math.max(commandTimeoutMs, fileDownloadWaitMs)
	const invoke: FileInvoke = (request, label) => {
		if (request._ !== LIFECYCLE_METHODS[label]) throw new Error(`${label} sends ${request._}`)
		return runtime.invoke(userbotId, request, { timeoutMs, label })
	}
	// Evicted by TDLib itself, so that its `getFile` stays true; an id it no longer knows is gone already.
	const evict = (victim: number) =>
		invoke({ _: 'deleteFile', file_id: victim }, 'userbots:evict').then(
			() => undefined,
			(err) => {
				if (!(err instanceof TdError && err.code === 400)) throw err
			},
		)
	return fetchFile(invoke, userbotId, fileId, {
		dataDir,
		maxBytes: fileMaxBytes,
		waitMs: fileDownloadWaitMs,
		cache: { fits: cache.fits, admit: (id, size) => cache.admit(userbotId, id, size, evict) },
		remote: ctx.config.bus !== undefined,
	})
}
