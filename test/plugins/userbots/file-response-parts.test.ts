import { describe, expect, it } from 'bun:test'
import { fileResponse } from '../../../plugins/userbots/file-response'
import { READ_PART_BYTES } from '../../../src/runtime/telegram/file-parts'

/**
 * A file read through TDLib (`readFilePart`, a shard on another host) as an HTTP answer: streamed in
 * parts of at most READ_PART_BYTES, one part asked at a time, ranges as from the disk.
 */
const SIZE = 2 * READ_PART_BYTES + 123
const BYTES = new Uint8Array(SIZE).map((_, i) => (i * 7) % 251)

function reader() {
	const calls: Array<[number, number]> = []
	let inFlight = 0
	let most = 0
	const read = async (offset: number, count: number) => {
		calls.push([offset, count])
		most = Math.max(most, ++inFlight)
		await Promise.resolve()
		inFlight--
		return BYTES.slice(offset, offset + count)
	}
	return { read, calls, most: () => most }
}
const file = (read: (o: number, c: number) => Promise<Uint8Array>) =>
	({ ready: true, name: 'video.mp4', size: SIZE, etag: '"e"', read }) as const
const request = (headers: Record<string, string> = {}) => new Request('http://x/f', { headers })

describe('a file read through TDLib', () => {
	it('streams the whole file in bounded parts, one at a time, with its type from the name', async () => {
		const r = reader()
		const res = fileResponse(file(r.read), request())
		expect(res.status).toBe(200)
		expect(res.headers.get('content-type')).toBe('video/mp4')
		expect(new Uint8Array(await res.arrayBuffer())).toEqual(BYTES)
		expect(r.calls).toEqual([
			[0, READ_PART_BYTES],
			[READ_PART_BYTES, READ_PART_BYTES],
			[2 * READ_PART_BYTES, 123],
		])
		expect(r.most()).toBe(1)
	})

	it('reads only the bytes of a Range, across a part boundary', async () => {
		const r = reader()
		const start = READ_PART_BYTES - 4
		const res = fileResponse(file(r.read), request({ range: `bytes=${start}-${start + 9}` }))
		expect(res.status).toBe(206)
		expect(res.headers.get('content-range')).toBe(`bytes ${start}-${start + 9}/${SIZE}`)
		expect(new Uint8Array(await res.arrayBuffer())).toEqual(BYTES.subarray(start, start + 10))
		expect(r.calls).toEqual([[start, 10]])
	})

	it('ends the body with an error when TDLib has fewer bytes than the file size', async () => {
		const short = async (offset: number, count: number) => BYTES.slice(offset, Math.min(offset + count, 100))
		const res = fileResponse(file(short), request())
		expect(res.status).toBe(200)
		await expect(res.arrayBuffer()).rejects.toThrow()
	})
})
