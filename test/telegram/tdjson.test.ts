import { afterEach, describe, expect, it } from 'bun:test'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Bundled } from '../../src/build/bundled'
import { extractTdjson, tdjsonPath } from '../../src/runtime/telegram/tdjson'

const dirs: string[] = []
afterEach(() => {
	for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})
const tempDir = () => {
	const d = mkdtempSync(join(tmpdir(), 'ubg-tdjson-'))
	dirs.push(d)
	return d
}

/** A stand-in for the binary's embedded library: a file of known bytes. */
function embedded(dir: string, id: string, bytes = 4096): Bundled {
	const file = join(dir, `embedded-${id}`)
	writeFileSync(file, Buffer.alloc(bytes, id))
	return { tdjson: file, tdjsonId: id, tdjsonBytes: bytes, workers: {} }
}

describe('tdjsonPath', () => {
	it("is prebuilt-tdlib's file when run from source", async () => {
		const path = await tdjsonPath(undefined, null)
		expect(path).toMatch(/\/node_modules\/@prebuilt-tdlib\/[^/]+\/libtdjson\.so$/)
		// A shared library (read, never loaded: tests load no TDLib).
		expect(readFileSync(path).subarray(0, 4)).toEqual(Buffer.from([0x7f, 0x45, 0x4c, 0x46]))
	})

	it('is a copy in the cache folder in the binary, made once', async () => {
		const dir = tempDir()
		const lib = embedded(dir, 'aaaa')
		const cache = join(dir, 'cache')
		const first = await tdjsonPath(cache, lib)
		expect(first).toBe(join(cache, 'libtdjson-aaaa.so'))
		expect(readFileSync(first)).toEqual(readFileSync(lib.tdjson))
		const inode = statSync(first).ino
		expect(await tdjsonPath(cache, lib)).toBe(first)
		expect(statSync(first).ino).toBe(inode)
		expect(readdirSync(cache)).toEqual(['libtdjson-aaaa.so'])
	})
})

describe('extractTdjson', () => {
	it('replaces a copy cut short, and removes the copies of other builds but not a copy in progress', async () => {
		const dir = tempDir()
		const cache = join(dir, 'cache')
		mkdirSync(cache)
		writeFileSync(join(cache, 'libtdjson-bbbb.so'), 'half')
		writeFileSync(join(cache, 'libtdjson-old1.so'), 'an older build')
		writeFileSync(join(cache, 'libtdjson-cccc.so.123.partial'), 'another process copying')
		const lib = embedded(dir, 'bbbb')
		const path = await extractTdjson(lib, cache)
		expect(statSync(path).size).toBe(lib.tdjsonBytes)
		expect(readdirSync(cache).sort()).toEqual(['libtdjson-bbbb.so', 'libtdjson-cccc.so.123.partial'])
	})

	it('fails with the reason of the file system when the cache folder cannot be made', async () => {
		const dir = tempDir()
		const lib = embedded(dir, 'dddd')
		const blocker = join(dir, 'not-a-folder')
		writeFileSync(blocker, '')
		await expect(extractTdjson(lib, join(blocker, 'cache'))).rejects.toThrow(/ENOTDIR|EEXIST/)
	})
})
