import { afterEach, describe, expect, it } from 'bun:test'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { UserbotError } from '../../../../plugins/userbots/lifecycle/errors'
import {
	createUploadStore,
	type UploadSource,
	uploadsDir,
} from '../../../../plugins/userbots/lifecycle/uploads'

const dirs: string[] = []
afterEach(() => {
	for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})
const tempDir = () => {
	const d = mkdtempSync(join(tmpdir(), 'ubg-uploads-'))
	dirs.push(d)
	return d
}

/** A source that delivers `sent` bytes of the `size` it announced, then breaks off (a dropped client). */
function breakingSource(size: number, sent: number): UploadSource {
	return {
		name: 'cut.bin',
		size,
		stream: () =>
			new ReadableStream<Uint8Array>({
				start(controller) {
					controller.enqueue(new Uint8Array(sent))
					controller.error(new Error('connection reset while reading the upload'))
				},
			}),
	}
}

const file = (size: number, name = 'f.bin') => new File([new Uint8Array(size)], name)
const LIMITS = { maxBytes: 1000, quotaBytes: 5000, companyQuotaBytes: 8000 }

describe('createUploadStore', () => {
	it('lets twelve concurrent uploads of one userbot store no more than its quota', async () => {
		const dataDir = tempDir()
		const store = createUploadStore(dataDir, LIMITS)
		const outcomes = await Promise.allSettled(
			Array.from({ length: 12 }, () => store.save(1, 7, file(1000), async () => [7])),
		)
		const stored = outcomes.filter((o) => o.status === 'fulfilled').length
		expect(stored).toBe(5)
		for (const o of outcomes)
			if (o.status === 'rejected') expect((o.reason as UserbotError).code).toBe('quota_exceeded')
		expect(readdirSync(uploadsDir(dataDir, 7))).toHaveLength(5)
	})

	it('holds the company quota across the company’s userbots under concurrency', async () => {
		const dataDir = tempDir()
		const store = createUploadStore(dataDir, LIMITS)
		const ids = async () => [1, 2, 3]
		const outcomes = await Promise.allSettled(
			Array.from({ length: 12 }, (_, i) => store.save(9, 1 + (i % 3), file(1000), ids)),
		)
		expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(8)
		const codes = outcomes.flatMap((o) => (o.status === 'rejected' ? [(o.reason as UserbotError).code] : []))
		expect(new Set(codes)).toEqual(new Set(['company_quota_exceeded']))
		// Another company's uploads are not counted against it.
		expect((await store.save(10, 4, file(1000), async () => [4])).size).toBe(1000)
	})

	it('removes what a failed write left, and answers the failure', async () => {
		const dataDir = tempDir()
		const store = createUploadStore(dataDir, LIMITS)
		await expect(store.save(1, 7, breakingSource(900, 400), async () => [7])).rejects.toThrow(
			'connection reset while reading the upload',
		)
		expect(readdirSync(uploadsDir(dataDir, 7))).toEqual([])
	})

	it('refuses a source longer than it said, keeping nothing', async () => {
		const dataDir = tempDir()
		const store = createUploadStore(dataDir, LIMITS)
		const liar: UploadSource = { name: 'x', size: 10, stream: () => new Blob([new Uint8Array(900)]).stream() }
		const err = await store.save(1, 7, liar, async () => [7]).catch((e: unknown) => e)
		expect((err as UserbotError).code).toBe('file_too_large')
		expect(readdirSync(uploadsDir(dataDir, 7))).toEqual([])
	})

	it('sweeps a partial file a crash left, and does not count it', async () => {
		const dataDir = tempDir()
		const dir = uploadsDir(dataDir, 7)
		mkdirSync(dir, { recursive: true })
		writeFileSync(join(dir, '.partial-0123'), new Uint8Array(4500))
		const store = createUploadStore(dataDir, LIMITS)
		expect((await store.save(1, 7, file(1000), async () => [7])).size).toBe(1000)
		expect(readdirSync(dir).filter((n) => n.startsWith('.'))).toEqual([])
	})
})
