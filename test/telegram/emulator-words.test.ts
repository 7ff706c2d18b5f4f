import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createEmulatorBackend, SEED_CHATS } from '../../src/emulator'
import type { BackendClient } from '../../src/runtime/telegram/backend'
import { tdjsonPath } from '../../src/runtime/telegram/tdjson'
import { TdError, type TdRequest, type TdUpdate } from '../../src/runtime/telegram/types'
import { startTdlibChild, type TdlibChild } from './tdlib-child'

/**
 * The emulator's errors are TDLib's words. TDLib's own strings must be the ones TDLib 1.8.65 says
 * (its library holds every one of them, and real TDLib answers alike where it can be asked offline);
 * names in capitals are the Telegram server's, and strings naming the emulator are its own.
 */

const EMULATOR_SOURCES = join(import.meta.dir, '..', '..', 'src', 'emulator')

/** Telegram's server errors (`PASSWORD_HASH_INVALID`) and the emulator's own words are not TDLib's. */
const isServerName = (text: string) => /^[A-Z][A-Z0-9_]*$/.test(text)
const isEmulatorOwn = (text: string) => /\bemulator\b/.test(text)

/** The text between the parentheses that open at `start` (strings and nested calls skipped). */
function argumentsAt(source: string, start: number): string {
	let depth = 0
	for (let i = start; i < source.length; i++) {
		const c = source[i]!
		if (c === "'" || c === '"' || c === '`') {
			for (i++; i < source.length && source[i] !== c; i++) if (source[i] === '\\') i++
		} else if (c === '(') depth++
		else if (c === ')' && --depth === 0) return source.slice(start + 1, i)
	}
	return ''
}

const LITERAL = /'((?:\\.|[^'\\])*)'|"((?:\\.|[^"\\])*)"|`((?:\\.|[^`\\])*)`/g

/** Every error text the emulator's sources can fail with, as written (templates keep their `${…}`). */
function emulatorErrorTexts(): Array<{ file: string; text: string; template: boolean }> {
	const found: Array<{ file: string; text: string; template: boolean }> = []
	for (const file of readdirSync(EMULATOR_SOURCES, { recursive: true, encoding: 'utf8' }).filter((f) =>
		f.endsWith('.ts'),
	)) {
		const source = readFileSync(join(EMULATOR_SOURCES, file), 'utf8')
		const constants = new Map<string, string>()
		for (const m of source.matchAll(/\b([A-Za-z_]\w*)\s*=\s*(?:'((?:\\.|[^'\\])*)'|"((?:\\.|[^"\\])*)")/g)) {
			constants.set(m[1]!, (m[2] ?? m[3]!).replace(/\\(.)/g, '$1'))
		}
		const add = (args: string) => {
			for (const m of args.matchAll(LITERAL)) {
				const text = (m[1] ?? m[2] ?? m[3] ?? '').replace(/\\(.)/g, '$1')
				if (text) found.push({ file, text, template: m[3] !== undefined && text.includes('${') })
			}
			for (const m of args.replace(LITERAL, '').matchAll(/\b[A-Za-z_]\w*\b/g)) {
				const value = constants.get(m[0])
				if (value !== undefined) found.push({ file, text: value, template: false })
			}
		}
		// fail(...) and the not-found words handed to requireChat / writable.
		for (const m of source.matchAll(/\b(?:fail|requireChat|writable)\(/g)) {
			add(argumentsAt(source, m.index! + m[0].length - 1))
		}
	}
	return found
}

describe("the emulator's TDLib error strings", () => {
	it("are all in TDLib 1.8.65's own library, word for word", async () => {
		// The strings of the library our tdl runs: what its C++ sources compiled to.
		const library = readFileSync(await tdjsonPath(undefined, null)).toString('latin1')
		const texts = emulatorErrorTexts()
		const own = texts.filter((t) => !isServerName(t.text) && !isEmulatorOwn(t.text))
		const inLibrary = (text: string) => library.includes(`${text}\0`)
		const missing = own.filter(({ text, template }) => {
			// TDLib also words an error as its context, ": ", then the inner error (FileManager's URLs).
			const colon = text.indexOf(': ')
			const composed = colon > 0 && inLibrary(text.slice(0, colon + 2)) && inLibrary(text.slice(colon + 2))
			if (!template) return !inLibrary(text) && !composed
			const parts = text.split(/\$\{[^}]*\}/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
			return !new RegExp(`\0${parts.join('[^\0]*')}\0`).test(library)
		})
		expect(missing.map((m) => `${m.file}: ${m.text}`)).toEqual([])
		// The extraction sees them all: a broken one that finds nothing must not pass.
		expect(new Set(own.map((t) => t.text)).size).toBeGreaterThan(100)
		expect(own.some((t) => t.text === 'Chat to forward messages from not found')).toBe(true)
		expect(
			own.some(
				(t) => t.text === "Member limit can't be specified for links requiring administrator approval",
			),
		).toBe(true)
		expect(texts.some((t) => t.text === 'PASSWORD_HASH_INVALID')).toBe(true)
	})

	it('would catch a string TDLib 1.8.65 does not say', async () => {
		const library = readFileSync(await tdjsonPath(undefined, null)).toString('latin1')
		// The words the emulator had before they were checked.
		for (const old of [
			'Call to logOut unexpected',
			'Option name is invalid',
			'Unsupported input file type',
			'The method is available only for supergroup chats',
			'Need delete messages administator right in the supergroup chat',
		]) {
			expect(library.includes(`${old}\0`)).toBe(false)
		}
	})
})

type Answer = { ok: unknown } | { code: number; message: string }
const answer = (p: Promise<unknown>): Promise<Answer> =>
	p.then(
		(ok) => ({ ok }),
		(e: unknown) => {
			if (e instanceof TdError) return { code: e.code, message: e.message }
			const err = e as { code?: number; message?: string }
			return { code: Number(err.code), message: String(err.message) }
		},
	)

describe('the emulator and real TDLib 1.8.65 answer alike before log-in and while closing', () => {
	const dir = mkdtempSync(join(tmpdir(), 'ubg-words-'))
	let td: TdlibChild
	let real: BackendClient
	let emulated: BackendClient
	beforeAll(async () => {
		// Real TDLib in a process of its own (tdlib-child.ts), the service's backend, offline.
		td = await startTdlibChild()
		const waitPhone = (client: BackendClient) =>
			new Promise<void>((resolve) =>
				client.onUpdate((u: TdUpdate) => {
					if (
						u._ === 'updateAuthorizationState' &&
						u.authorization_state._ === 'authorizationStateWaitPhoneNumber'
					)
						resolve()
				}),
			)
		const options = (name: string) => {
			mkdirSync(join(dir, name))
			return { databaseDirectory: join(dir, name), filesDirectory: join(dir, name), encryptionKey: '' }
		}
		real = td.createClient(options('real'))
		emulated = createEmulatorBackend().createClient(1, options('emulated'))
		await Promise.all([waitPhone(real), waitPhone(emulated)])
	})
	afterAll(async () => {
		await td.stop()
		rmSync(dir, { recursive: true, force: true })
	})

	const both = async (requests: TdRequest[]) => {
		const ours: Answer[] = []
		const theirs: Answer[] = []
		for (const req of requests) {
			theirs.push(await answer(real.invoke(req)))
			ours.push(await answer(emulated.invoke(req)))
		}
		return { ours, theirs }
	}

	it('answers options, log-in steps out of turn and requests that need a log-in', async () => {
		const option = (name: string): TdRequest => ({
			_: 'setOption',
			name,
			value: { _: 'optionValueBoolean', value: true },
		})
		const { ours, theirs } = await both([
			option('Bad-Name'),
			option('version'),
			option('my_id'),
			option(''),
			option('x_flag'),
			option('X_Flag'),
			option(`x_${'a'.repeat(300)}`),
			{ _: 'setAuthenticationPhoneNumber', phone_number: '' },
			{ _: 'checkAuthenticationCode', code: '11111' },
			{ _: 'checkAuthenticationPassword', password: 'secret' },
			{ _: 'registerUser', first_name: 'Nora', last_name: '', disable_notification: false },
			{ _: 'getMe' },
			{ _: 'getChats', limit: 10 },
		])
		expect(ours).toEqual(theirs)
		// The judge said something: refusals of each kind, and the custom options taken.
		expect(theirs).toContainEqual({ code: 400, message: "Option can't be set" })
		expect(theirs).toContainEqual({ code: 400, message: 'Option name is too long' })
		expect(theirs).toContainEqual({ code: 400, message: 'Phone number must be non-empty' })
		expect(theirs).toContainEqual({ code: 400, message: 'Call to registerUser unexpected' })
		expect(theirs).toContainEqual({ code: 401, message: 'Unauthorized' })
		expect(theirs).toContainEqual({ ok: { _: 'ok' } })
	})

	it('aborts what a closing client is asked, but for its synchronous requests', async () => {
		const requests: TdRequest[] = [
			{ _: 'getMe' },
			{ _: 'logOut' },
			{ _: 'checkAuthenticationCode', code: '11111' },
			{ _: 'setOption', name: 'x_late', value: { _: 'optionValueBoolean', value: true } },
			{ _: 'setNetworkType', type: { _: 'networkTypeNone' } },
			{ _: 'getOption', name: 'version' },
			{ _: 'getAuthorizationState' },
		]
		// Asked in the same turn as `close`, so each client is still closing when it answers.
		const ask = (client: BackendClient) => {
			const closed = answer(client.invoke({ _: 'close' }))
			return Promise.all([closed, ...requests.map((r) => answer(client.invoke(r)))])
		}
		const theirs = await ask(real)
		const ours = await ask(emulated)
		expect(ours).toEqual(theirs)
		expect(
			theirs.filter((a) => 'code' in a && a.code === 500 && a.message === 'Request aborted'),
		).toHaveLength(5)
		expect(theirs.at(-1)).toEqual({ ok: { _: 'authorizationStateClosing' } })
	})
})

describe('emulator errors in TDLib 1.8.65 words', () => {
	const dir = mkdtempSync(join(tmpdir(), 'ubg-words-emu-'))
	afterAll(() => rmSync(dir, { recursive: true, force: true }))
	const backend = createEmulatorBackend()
	let next = 1

	const tdError = async (p: Promise<unknown>) => {
		const a = await answer(p)
		if ('ok' in a) throw new Error(`expected an error, got ${JSON.stringify(a.ok)}`)
		return a.message
	}

	async function client(phone?: string) {
		const id = next++
		mkdirSync(join(dir, String(id)))
		const c = backend.createClient(id, {
			databaseDirectory: join(dir, String(id)),
			filesDirectory: join(dir, String(id)),
			encryptionKey: '',
		})
		const call = (req: TdRequest) => c.invoke(req)
		if (phone) {
			await call({ _: 'setAuthenticationPhoneNumber', phone_number: phone })
			await call({ _: 'checkAuthenticationCode', code: phone.charAt(5).repeat(5) })
		}
		return call
	}
	const ALICE = '9996611111'
	const BOB = '9996621234'

	it('words log-in steps as TDLib does', async () => {
		const call = await client()
		expect(await tdError(call({ _: 'setAuthenticationPhoneNumber', phone_number: '' }))).toBe(
			'Phone number must be non-empty',
		)
		await call({ _: 'setAuthenticationPhoneNumber', phone_number: '9996634567' })
		await call({ _: 'checkAuthenticationCode', code: '33333' })
		expect(await tdError(call({ _: 'registerUser', first_name: '  ', last_name: '' }))).toBe(
			'First name must be non-empty',
		)
		await call({ _: 'registerUser', first_name: 'Nora', last_name: '' })
		// A second log-out while the first is under way: TDLib's AuthManager answers it.
		const first = answer(call({ _: 'logOut' }))
		expect(await tdError(call({ _: 'logOut' }))).toBe('Already logging out')
		expect(await first).toEqual({ ok: { _: 'ok' } })
	})

	it('refuses impossible identifiers before looking them up', async () => {
		const call = await client(ALICE)
		expect(await tdError(call({ _: 'getUser', user_id: 0 }))).toBe('Invalid user identifier')
		expect(await tdError(call({ _: 'getUser', user_id: 99_999 }))).toBe('User not found')
		expect(await tdError(call({ _: 'getSupergroup', supergroup_id: -5 }))).toBe(
			'Invalid supergroup identifier',
		)
		expect(await tdError(call({ _: 'getSupergroup', supergroup_id: 99_999 }))).toBe('Supergroup not found')
		expect(await tdError(call({ _: 'getChat', chat_id: 0 }))).toBe('Invalid chat identifier specified')
		expect(await tdError(call({ _: 'getChat', chat_id: 99_999 }))).toBe('Chat not found')
	})

	it('reads files as TDLib does', async () => {
		const call = await client(ALICE)
		const photo = (photo: Record<string, unknown>) =>
			call({
				_: 'sendMessage',
				chat_id: 1002,
				input_message_content: {
					_: 'inputMessagePhoto',
					photo: { _: 'inputPhoto', photo: photo as never, width: 0, height: 0 },
				},
			} as TdRequest)
		const remote = (id: string) => photo({ _: 'inputFileRemote', id })
		const local = (path: string) => photo({ _: 'inputFileLocal', path })
		const url = 'Invalid file HTTP URL specified: '
		expect(await tdError(remote('ftp://example.com/a.jpg'))).toBe(`${url}Unsupported URL protocol`)
		expect(await tdError(remote('https:///a.jpg'))).toBe(`${url}URL host is empty`)
		expect(await tdError(remote('https://example.com:99999/a.jpg'))).toBe(
			`${url}Wrong port number specified in the URL`,
		)
		expect(await tdError(remote('https://exa mple.com/a.jpg'))).toBe(`${url}Unallowed characters in URL host`)
		// A dot makes it a URL: TDLib takes `example.com/a.jpg` as http.
		expect(await remote('example.com/a.jpg')).toMatchObject({ _: 'message' })
		const wrong = 'Wrong remote file identifier specified: '
		expect(await tdError(remote('abc$'))).toBe(`${wrong}Wrong character in the string`)
		expect(await tdError(remote('abcde'))).toBe(`${wrong}Wrong string length`)
		expect(await tdError(remote('abcd'))).toBe(`${wrong}can't unserialize it. Wrong last symbol`)
		expect(await tdError(local(''))).toBe('File must have non-empty path')
		expect(await tdError(local(join(dir, 'no-such-file.jpg')))).toBe("Can't find real file path")
		expect(await tdError(local(dir))).toBe('File must be a regular file')
		const empty = join(dir, 'empty.jpg')
		writeFileSync(empty, '')
		expect(await tdError(local(empty))).toBe('File must be non-empty')
		expect(await tdError(photo(undefined as never))).toBe('InputFile is not specified')
	})

	it('checks messages in the order TDLib does', async () => {
		const call = await client(ALICE)
		const text = { _: 'inputMessageText', text: { _: 'formattedText', text: 'hi', entities: [] } }
		const empty = { _: 'inputMessageText', text: { _: 'formattedText', text: '', entities: [] } }
		// Albums: counted before the chat is looked for; each content read before its kind is judged.
		const album = (chat_id: number, input_message_contents: unknown[]) =>
			call({ _: 'sendMessageAlbum', chat_id, input_message_contents } as TdRequest)
		expect(await tdError(album(99_999, Array(11).fill(text)))).toBe('Too many messages to send as an album')
		expect(await tdError(album(99_999, []))).toBe('There are no messages to send')
		expect(await tdError(album(1002, [empty]))).toBe('Text must be non-empty')
		expect(await tdError(album(1002, [text]))).toBe('Invalid message content type')
		// Forwards: the count, the source, the target, then the identifiers.
		const forward = (chat_id: number, from_chat_id: number, message_ids: number[]) =>
			call({ _: 'forwardMessages', chat_id, from_chat_id, message_ids } as TdRequest)
		expect(await tdError(forward(99_999, 99_999, []))).toBe('There are no messages to forward')
		expect(await tdError(forward(1002, 99_999, [1]))).toBe('Chat to forward messages from not found')
		expect(await tdError(forward(99_999, 1002, [1]))).toBe('Chat to forward messages to not found')
		expect(await tdError(forward(1002, 1002, [0]))).toBe('Invalid message identifier')
		expect(await tdError(forward(SEED_CHATS.channel, 1002, [1]))).toBe('Have no write access to the chat')
		// Edits: whose message and what it holds, before the new content (Bob wrote the chat's first).
		const photo = { _: 'inputMessagePhoto', photo: { _: 'inputPhoto', photo: { _: 'inputFileId', id: 1 } } }
		const edit = (message_id: number) =>
			call({ _: 'editMessageText', chat_id: 1002, message_id, input_message_content: photo } as TdRequest)
		expect(await tdError(edit(2 ** 20))).toBe("Message can't be edited")
		expect(await tdError(edit(2 * 2 ** 20))).toBe('Invalid message content type')
		// Pins: the right to pin before the message; only_for_self last.
		const pin = (chat_id: number, message_id: number, only_for_self = false) =>
			call({ _: 'pinChatMessage', chat_id, message_id, only_for_self } as TdRequest)
		expect(await tdError(pin(SEED_CHATS.channel, 1))).toBe(
			'Not enough rights to manage pinned messages in the chat',
		)
		expect(await tdError(pin(SEED_CHATS.supergroup, 1, true))).toBe('Message not found')
		// Auto-delete: the value first, then the chat and the right to write there.
		const ttl = (chat_id: number, message_auto_delete_time: number) =>
			call({ _: 'setChatMessageAutoDeleteTime', chat_id, message_auto_delete_time })
		expect(await tdError(ttl(99_999, -1))).toBe("Message auto-delete time can't be negative")
		expect(await tdError(ttl(SEED_CHATS.channel, 86_400))).toBe('Have no write access to the chat')
		await call({ _: 'createPrivateChat', user_id: 1001, force: false })
		expect(await tdError(ttl(1001, 86_400))).toBe("Message auto-delete time in the chat can't be changed")
	})

	it('words deleting by sender and blocking as TDLib does', async () => {
		const bob = await client(BOB)
		const del = (chat_id: number, user_id: number) =>
			bob({ _: 'deleteChatMessagesBySender', chat_id, sender_id: { _: 'messageSenderUser', user_id } })
		expect(await tdError(del(SEED_CHATS.channel, 1001))).toBe(
			'The method is available only in regular supergroup chats',
		)
		// Bob is a plain member of Alice's forum.
		expect(await tdError(del(SEED_CHATS.forum, 1001))).toBe(
			'Need delete messages administrator right in the supergroup chat',
		)
		const block = (sender_id: Record<string, unknown>) =>
			bob({ _: 'setMessageSenderBlockList', sender_id, block_list: { _: 'blockListMain' } } as TdRequest)
		expect(await tdError(block({ _: 'messageSenderUser', user_id: 424_242 }))).toBe(
			'Unknown user identifier specified',
		)
		expect(await tdError(block({ _: 'messageSenderChat', chat_id: 424_242 }))).toBe(
			'Unknown chat identifier specified',
		)
		expect(await tdError(block({ _: 'messageSenderChat', chat_id: -1_000_000_999_999 }))).toBe(
			'Unknown chat identifier specified',
		)
		expect(await tdError(block({ _: 'messageSenderChat', chat_id: 1002 }))).toBe("Can't block self")
	})
})
