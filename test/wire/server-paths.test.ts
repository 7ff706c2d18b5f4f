import { describe, expect, it } from 'bun:test'
import {
	mayHoldServerPaths,
	serverPathFreeJson,
	withoutServerPaths,
} from '../../src/common/wire/server-paths'

/**
 * Issue 43: the one function every TDLib object passes on its way out (replies, live updates,
 * pushes, webhooks' events) blanks each `localFile`'s path, copying only what it changes.
 */
const localFile = (path: string) => ({
	_: 'localFile',
	path,
	can_be_downloaded: true,
	is_downloading_completed: path !== '',
	downloaded_size: 10,
})

describe('withoutServerPaths', () => {
	it('blanks every local path, nested in objects and arrays, and keeps the rest', () => {
		const message = {
			_: 'message',
			id: 7,
			content: {
				_: 'messagePhoto',
				photo: {
					sizes: [
						{ type: 's', photo: { _: 'file', id: 1, local: localFile('/srv/data/tdlib/1/files/a.jpg') } },
						{ type: 'm', photo: { _: 'file', id: 2, local: localFile('') } },
					],
				},
			},
		}
		const before = JSON.stringify(message)
		const out = withoutServerPaths(message)
		expect(out.content.photo.sizes[0]?.photo.local).toEqual({
			...localFile(''),
			is_downloading_completed: true,
		})
		expect(JSON.stringify(out)).not.toContain('/srv/data')
		// Nothing changed in place: the server's own readers keep the path.
		expect(JSON.stringify(message)).toBe(before)
		// What held no path is shared, not copied.
		expect(out.content.photo.sizes[1]).toBe(message.content.photo.sizes[1])
	})

	it('hands back the very value when there is nothing to blank', () => {
		const value = { _: 'chat', id: 1, photo: { small: { local: localFile('') } }, list: [1, 'a', null] }
		expect(withoutServerPaths(value)).toBe(value)
		for (const plain of [null, 3, 'text', true, undefined]) expect(withoutServerPaths(plain)).toBe(plain)
	})

	it('stringifies once when the text names no local file, and blanks the path when it does', () => {
		expect(mayHoldServerPaths(JSON.stringify({ a: 'localFiles are mentioned' }))).toBe(false)
		expect(serverPathFreeJson({ a: 1 })).toBe('{"a":1}')
		const text = serverPathFreeJson({ result: [{ local: localFile('/srv/data/tdlib/2/uploads/x') }] })
		expect(JSON.parse(text)).toEqual({
			result: [{ local: { ...localFile(''), is_downloading_completed: true } }],
		})
	})
})
