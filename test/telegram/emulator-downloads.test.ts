import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { emulatorRequest } from '../../src/emulator'
import { DOWNLOAD_PART_BYTES } from '../../src/emulator/files/downloads'
import { TdError } from '../../src/runtime/telegram/types'
import { login, rejection, startRuntime, type TestRuntime } from '../supervisor/helpers'

/** The emulator's downloads in parts, through a real supervisor child: progress, joining, cancelling. */
const ALICE = 1
const BOB = 2
const BYTES = new Uint8Array(DOWNLOAD_PART_BYTES + 10).map((_, i) => i % 256)

describe('emulator downloads', () => {
	let t: TestRuntime
	let dir: string
	let fileId: number
	beforeAll(async () => {
		t = await startRuntime()
		dir = mkdtempSync(join(tmpdir(), 'ubg-downloads-'))
		await login(t.rt, ALICE, '9996611111')
		await login(t.rt, BOB, '9996621234')
		const path = join(dir, 'two-parts.bin')
		writeFileSync(path, BYTES)
		const sent = await t.rt.invoke(ALICE, {
			_: 'sendMessage',
			chat_id: 1002,
			input_message_content: {
				_: 'inputMessageDocument',
				document: { _: 'inputDocument', document: { _: 'inputFileLocal', path } },
			},
		})
		fileId = sent.content._ === 'messageDocument' ? sent.content.document.document.id : 0
	})
	afterAll(async () => {
		await t.stop()
		rmSync(dir, { recursive: true, force: true })
	})
	const hold = (on: boolean) => t.rt.invoke(BOB, emulatorRequest({ _: 'emulatorHoldDownloads', hold: on }))
	const download = (synchronous: boolean) =>
		t.rt.invoke(BOB, { _: 'downloadFile', file_id: fileId, priority: 1, synchronous })

	it('reports a running download, and cancels it on deleteFile: the one waiting for it fails', async () => {
		await hold(true)
		const started = await download(false)
		expect(started.local).toMatchObject({
			is_downloading_active: true,
			is_downloading_completed: false,
			downloaded_size: DOWNLOAD_PART_BYTES,
			path: '',
		})
		const waiting = download(true)
		await t.rt.invoke(BOB, { _: 'deleteFile', file_id: fileId })
		const err = (await rejection(waiting)) as TdError
		expect(err).toBeInstanceOf(TdError)
		expect(err.message).toBe('File download has failed or was canceled')
		const after = await t.rt.invoke(BOB, { _: 'getFile', file_id: fileId })
		expect(after.local).toMatchObject({ is_downloading_active: false, downloaded_size: 0, path: '' })
	})

	it('joins a second downloadFile to the running one, and both end with the whole file', async () => {
		await hold(true)
		const one = download(true)
		const two = download(true)
		await hold(false)
		const [a, b] = await Promise.all([one, two])
		expect(a.local.path).toBe(b.local.path)
		expect(new Uint8Array(readFileSync(a.local.path))).toEqual(BYTES)
		expect(a.local).toMatchObject({ is_downloading_completed: true, downloaded_size: BYTES.length })
	})

	it('reads parts of a file the client has whole with readFilePart, and refuses one it has not', async () => {
		const read = async (who: number, offset: number, count: number) => {
			const part = (await t.rt.invoke(who, { _: 'readFilePart', file_id: fileId, offset, count })) as {
				data: string
			}
			return new Uint8Array(Buffer.from(part.data, 'base64'))
		}
		await download(true)
		expect(await read(BOB, 0, 10)).toEqual(BYTES.subarray(0, 10))
		// Across the cloud's part boundary, and to the end with count 0 (TDLib's "the rest").
		expect(await read(BOB, DOWNLOAD_PART_BYTES - 5, 10)).toEqual(
			BYTES.subarray(DOWNLOAD_PART_BYTES - 5, DOWNLOAD_PART_BYTES + 5),
		)
		expect(await read(BOB, 3, 0)).toEqual(BYTES.subarray(3))
		expect((await read(BOB, BYTES.length, 0)).length).toBe(0)
		// The uploader reads the file it sent from.
		expect(await read(ALICE, 1, 5)).toEqual(BYTES.subarray(1, 6))
		const refused = async (offset: number, count: number) =>
			((await rejection(t.rt.invoke(BOB, { _: 'readFilePart', file_id: fileId, offset, count }))) as TdError)
				.message
		expect(await refused(-1, 10)).toBe('Parameter offset must be non-negative')
		expect(await refused(0, -1)).toBe('Parameter count must be non-negative')
		// As TDLib's FileManager::read_file_part: a count past the bytes there is refused, not cut short.
		expect(await refused(BYTES.length - 4, 100)).toBe(
			'There is not enough downloaded bytes in the file to read',
		)
		expect(await refused(BYTES.length, 10)).toBe('There is not enough downloaded bytes in the file to read')
		await t.rt.invoke(BOB, { _: 'deleteFile', file_id: fileId })
		expect(await refused(0, 10)).toBe('There is not enough downloaded bytes in the file to read')
	})
})
