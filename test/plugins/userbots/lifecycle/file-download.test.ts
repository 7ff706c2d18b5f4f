import { afterAll, describe, expect, it } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type * as Td from 'tdlib-types'
import type { UserbotError } from '../../../../plugins/userbots/lifecycle/errors'
import { type FileInvoke, fetchFile } from '../../../../plugins/userbots/lifecycle/file-download'
import { TdError } from '../../../../src/runtime/telegram/types'

/** `fetchFile` against a scripted TDLib: which calls it makes, and what it answers for each file state. */
const dataDir = mkdtempSync(join(tmpdir(), 'ubg-file-download-'))
const files = join(dataDir, 'tdlib', '7', 'files')
mkdirSync(files, { recursive: true })
mkdirSync(join(dataDir, 'tdlib', '7', 'db'), { recursive: true })
writeFileSync(join(files, 'a.png'), 'png bytes')
writeFileSync(join(dataDir, 'tdlib', '7', 'db', 'td.binlog'), 'secret')
symlinkSync(join(dataDir, 'tdlib', '7', 'db', 'td.binlog'), join(files, 'link.png'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

const fileOf = (path: string, done: boolean, size = 9, downloaded = done ? size : 0): Td.file => ({
	_: 'file',
	id: 3,
	size,
	expected_size: size,
	local: {
		_: 'localFile',
		path,
		can_be_downloaded: true,
		can_be_deleted: false,
		is_downloading_active: !done,
		is_downloading_completed: done,
		download_offset: 0,
		downloaded_prefix_size: downloaded,
		downloaded_size: downloaded,
	},
	remote: {
		_: 'remoteFile',
		id: 'r',
		unique_id: 'u3',
		is_uploading_active: false,
		is_uploading_completed: true,
		uploaded_size: size,
	},
})

function scripted(answers: Record<string, () => Promise<unknown>>) {
	const calls: string[] = []
	const invoke: FileInvoke = (request, label) => {
		calls.push(`${label}:${request._}`)
		const answer = answers[request._]
		return answer ? answer() : Promise.reject(new Error('unexpected'))
	}
	return { invoke, calls }
}
const limits = { dataDir, maxBytes: 100, waitMs: 50 }
const refusal = (p: Promise<unknown>) =>
	p.then(
		() => 'resolved',
		(e: UserbotError) => `${e.status} ${e.code}`,
	)

describe('fetchFile', () => {
	it('answers the progress (202 in the route) when the download is not done within the wait', async () => {
		// The download never answers: only the wait can end it, whatever the timing.
		const { invoke, calls } = scripted({
			getFile: async () => fileOf('', false, 9, 4),
			downloadFile: () => new Promise(() => undefined),
		})
		expect(await fetchFile(invoke, 7, 3, limits)).toEqual({
			ready: false,
			downloaded_size: 4,
			expected_size: 9,
		})
		expect(calls).toEqual([
			'userbots:file:getFile',
			'userbots:download:downloadFile',
			'userbots:file:getFile',
		])
	})

	it('refuses a file over the limit before downloading anything', async () => {
		const { invoke, calls } = scripted({ getFile: async () => fileOf('', false, 101) })
		expect(await refusal(fetchFile(invoke, 7, 3, limits))).toBe('413 file_too_large')
		expect(calls).toEqual(['userbots:file:getFile'])
	})

	it('serves only a path inside the userbot’s files, links resolved', async () => {
		const done = (path: string) =>
			scripted({ getFile: async () => fileOf(path, true), downloadFile: async () => fileOf(path, true) })
		const ok = await fetchFile(done(join(files, 'a.png')).invoke, 7, 3, limits)
		expect(ok).toMatchObject({ ready: true, name: 'a.png' })
		expect(
			await refusal(fetchFile(done(join(dataDir, 'tdlib', '7', 'db', 'td.binlog')).invoke, 7, 3, limits)),
		).toBe('404 file_not_found')
		expect(await refusal(fetchFile(done(join(files, 'link.png')).invoke, 7, 3, limits))).toBe(
			'404 file_not_found',
		)
		// Another userbot's folder is not this one's.
		expect(await refusal(fetchFile(done(join(files, 'a.png')).invoke, 8, 3, limits))).toBe(
			'404 file_not_found',
		)
	})

	it('turns TDLib’s 400 for the id into 404 and keeps its other errors', async () => {
		const unknown = scripted({ getFile: () => Promise.reject(new TdError(400, 'Invalid file identifier')) })
		expect(await refusal(fetchFile(unknown.invoke, 7, 3, limits))).toBe('404 file_not_found')
		const unauthorized = scripted({ getFile: () => Promise.reject(new TdError(401, 'Unauthorized')) })
		expect(await refusal(fetchFile(unauthorized.invoke, 7, 3, limits))).toBe('400 telegram_error')
	})
})
