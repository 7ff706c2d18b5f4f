import { afterAll, describe, expect, it } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { checkTdRequest, INVALID_REQUEST, UNDECLARED_METHOD } from '../../src/server/commands/td-request'
import { uploadsDir } from '../../src/server/commands/uploads'

/** The one check of a TDLib request, made by the gateway and again by a shard. */
describe('checkTdRequest', () => {
	const dataDir = mkdtempSync(join(tmpdir(), 'ubg-td-request-'))
	afterAll(() => rmSync(dataDir, { recursive: true, force: true }))
	const check = (request: unknown, methods: readonly string[] = ['sendMessage']) => {
		try {
			checkTdRequest(request, { userbotId: 7, methods, dataDir })
			return 'ok'
		} catch (err) {
			return (err as Error).message
		}
	}
	const send = (content: unknown) => ({ _: 'sendMessage', chat_id: -1, input_message_content: content })
	const doc = (file: unknown) =>
		send({ _: 'inputMessageDocument', document: { _: 'inputDocument', document: file } })

	it('lets a declared method with a well-formed request through', () => {
		expect(check(send({ _: 'inputMessageText', text: { _: 'formattedText', text: 'hi' } }))).toBe('ok')
	})

	it('refuses a method not declared, one that is not TDLib’s, and a request that is not an object', () => {
		expect(check({ _: 'setLogStream', log_stream: { _: 'logStreamEmpty' } })).toBe(UNDECLARED_METHOD)
		expect(check({ _: 'noSuchMethod' }, ['noSuchMethod'])).toBe(INVALID_REQUEST)
		expect(check('sendMessage')).toBe(INVALID_REQUEST)
	})

	it('refuses unknown fields, wrong types and constructors of another type, at any depth', () => {
		expect(check({ ...send({ _: 'inputMessageText', text: { text: 'x' } }), extra: 1 })).toBe(INVALID_REQUEST)
		expect(check(send({ _: 'inputMessageText', text: { text: 5 } }))).toBe(INVALID_REQUEST)
		expect(check(send({ _: 'formattedText', text: 'x' }))).toBe(INVALID_REQUEST)
		expect(check(send({ _: 2056030919 }))).toBe(INVALID_REQUEST)
	})

	it('takes no file on the server’s disk but an uploaded file of this userbot', () => {
		const folder = uploadsDir(dataDir, 7)
		mkdirSync(folder, { recursive: true })
		writeFileSync(join(folder, 'a.txt'), 'a')
		symlinkSync('/etc/passwd', join(folder, 'link.txt'))
		expect(check(doc({ _: 'inputFileLocal', path: join(folder, 'a.txt') }))).toBe('ok')
		for (const path of [
			'/etc/passwd',
			join(folder, 'link.txt'),
			join(folder, 'missing.txt'),
			join(uploadsDir(dataDir, 8), 'a.txt'),
			`${folder}/../../7/uploads/a.txt`,
		])
			expect(check(doc({ _: 'inputFileLocal', path }))).toBe(INVALID_REQUEST)
		expect(
			check(
				doc({ _: 'inputFileGenerated', original_path: '/etc/passwd', conversion: 'x', expected_size: 0 }),
			),
		).toBe(INVALID_REQUEST)
	})
})
