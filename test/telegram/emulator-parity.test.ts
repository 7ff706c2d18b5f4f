import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createEmulatorBackend } from '../../src/emulator'
import type { BackendClient } from '../../src/runtime/telegram/backend'
import { PARSE_FAILED, tdlibParseError } from '../../src/runtime/telegram/schema/parse'
import type { ParseVerdict } from '../../src/runtime/telegram/tdlib'
import { TdError, type TdRequest } from '../../src/runtime/telegram/types'
import { buildCorpus, type Request } from './parse-corpus'
import { startTdlibChild, type TdlibChild } from './tdlib-child'

/**
 * Real TDLib 1.8.65 is the judge of what a request may look like. A parse-only client (never
 * initialised, so it runs nothing and never dials out) answers each request of the corpus, and the
 * emulator's parser must refuse exactly the same requests with exactly the same message.
 */
type Verdict = ParseVerdict

const oursVerdict = (req: Request): Verdict => {
	const error = tdlibParseError(req)
	return error === null ? 'parsed' : { refused: error }
}

describe('the emulator parses requests as TDLib 1.8.65 does', () => {
	// Real TDLib's parse-only client, in a process of its own (tdlib-child.ts).
	let real: TdlibChild
	beforeAll(async () => {
		real = await startTdlibChild()
	})
	afterAll(async () => {
		await real.stop()
	})

	it('refuses the same requests with the same messages, over a corpus of every field of every type', async () => {
		const corpus = buildCorpus()
		// Large enough to cover every function, every constructor and every kind of field.
		expect(corpus.length).toBeGreaterThan(20_000)
		const verdicts = await real.judge(corpus)
		const differences: string[] = []
		let refused = 0
		corpus.forEach((req, i) => {
			const theirs = verdicts[i]!
			if (theirs !== 'parsed') refused++
			const ours = oursVerdict(req)
			if (JSON.stringify(ours) !== JSON.stringify(theirs)) {
				differences.push(
					`${JSON.stringify(req).slice(0, 160)}: TDLib ${JSON.stringify(theirs)}, ours ${JSON.stringify(ours)}`,
				)
			}
		})
		expect(differences.slice(0, 10)).toEqual([])
		// Both kinds are in the corpus in numbers: a judge that parses (or refuses) everything fails.
		expect(refused).toBeGreaterThan(10_000)
		expect(corpus.length - refused).toBeGreaterThan(2_000)
	}, 120_000)

	it('words the cases measured by hand exactly as TDLib', async () => {
		const cases: Array<[Request, string | null]> = [
			[{ _: 'noSuchMethod' }, 'Unknown class "noSuchMethod"'],
			[{ _: 'getChat', chat_id: 'abc' }, `Can't parse as an integer string "abc"`],
			[{ _: 'getChat', chat_id: true }, 'Expected String or Number, but receive Boolean'],
			[
				{ _: 'getChats', chat_list: { _: 'chatListMain' }, limit: 2 ** 31 },
				`Can't parse as an integer string "2147483648"`,
			],
			[{ _: 'getChatMember', chat_id: 1, member_id: { _: 2056030919 } }, 'Unknown constructor 0x7a8c8ac7'],
			[{ _: 'getChatMember', chat_id: 1, member_id: { user_id: 5 } }, `Can't find field "@type"`],
			[
				{ _: 'getChatMember', chat_id: 1, member_id: { _: 'chatTypePrivate' } },
				'Unknown class "chatTypePrivate"',
			],
			[
				{ _: 'deleteMessages', chat_id: 1, message_ids: [1], revoke: 'yes' },
				'Expected Boolean, but receive String',
			],
			[{ _: 'setDatabaseEncryptionKey', new_encryption_key: 'abc' }, 'Wrong padding length'],
			// Parsed: a Bool from an integer, an unknown field, an exact-type field without @type.
			[{ _: 'deleteMessages', chat_id: 1, message_ids: [1], revoke: 1 }, null],
			[{ _: 'getMe', bogus: 1 }, null],
			[
				{
					_: 'sendMessage',
					chat_id: 1,
					input_message_content: { _: 'inputMessageText', text: { text: 'x' } },
				},
				null,
			],
		]
		const expected = cases.map(
			([, message]): Verdict => (message === null ? 'parsed' : { refused: PARSE_FAILED + message }),
		)
		expect(await real.judge(cases.map(([req]) => req))).toEqual(expected)
		expect(cases.map(([req]) => oursVerdict(req))).toEqual(expected)
	})
})

describe('the emulator backend', () => {
	let dir: string
	let client: BackendClient
	beforeAll(() => {
		dir = mkdtempSync(join(tmpdir(), 'ubg-parity-'))
		client = createEmulatorBackend().createClient(1, {
			databaseDirectory: dir,
			filesDirectory: dir,
			encryptionKey: '',
		})
	})
	afterAll(async () => {
		await client.close()
		rmSync(dir, { recursive: true, force: true })
	})

	const failure = (req: Request): Promise<{ code: number; message: string } | null> =>
		client.invoke(req as TdRequest).then(
			() => null,
			(err: unknown) => {
				if (err instanceof TdError) return { code: err.code, message: err.message }
				throw err
			},
		)

	it('answers a malformed request with TDLib code 400 and message, before anything else', async () => {
		// Not logged in: a well-formed request is 401, a malformed one is refused first, as in TDLib.
		expect(await failure({ _: 'getChat', chat_id: 1 })).toEqual({ code: 401, message: 'Unauthorized' })
		expect(await failure({ _: 'getChat', chat_id: 'abc' })).toEqual({
			code: 400,
			message: `${PARSE_FAILED}Can't parse as an integer string "abc"`,
		})
	})

	it('refuses a field the type does not declare, which TDLib would silently drop', async () => {
		const misspelt = { _: 'getChat', chat_idd: 1 }
		expect(await judgeOnce(misspelt)).toBe('parsed')
		expect(await failure(misspelt)).toEqual({
			code: 400,
			message: 'emulator: "chat_idd" is not a field of getChat (real TDLib would ignore it)',
		})
		const nested = {
			_: 'getChatMember',
			chat_id: 1,
			member_id: { _: 'messageSenderUser', user_id: 1, chat_id: 2 },
		}
		expect(await failure(nested)).toEqual({
			code: 400,
			message: 'emulator: "chat_id" is not a field of messageSenderUser (real TDLib would ignore it)',
		})
	})
})

let shared: Promise<TdlibChild> | undefined
const judgeOnce = async (req: Request) => {
	shared ??= startTdlibChild()
	return (await (await shared).judge([req]))[0]
}
afterAll(async () => {
	await (await shared)?.stop()
})
