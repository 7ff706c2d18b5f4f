import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type * as Td from 'tdlib-types'
import type { ObservedEvent } from '../../../src/server/updates/hub'
import {
	createUserbot,
	type FreshServer,
	logInOverRest,
	type Member,
	openSocket,
	type Socket,
	serveFresh,
	signUp,
} from './support'

/**
 * Issue 43: no path of the server's disk leaves it. TDLib's `file` objects carry `local.path`, the
 * absolute path where the server keeps a file (`DATA_DIR/tdlib/<id>/uploads/...`, `.../files/...`);
 * a client names a file by its id. Bob sends Alice an uploaded file and Alice downloads it through
 * the files route: neither the reply, nor a live update, nor what the webhooks observe, holds the
 * data folder, while TDLib (asked inside the server) still has the path.
 */
const ALICE = { phone: '9996611111', code: '11111' }
const BOB = { phone: '9996621234', code: '22222' }
const BYTES = new Uint8Array(5000).map((_, i) => (i * 7) % 251)

let server: FreshServer
let owner: Member
let alice: number
let bob: number
let aliceWs: Socket
let bobWs: Socket
const observed: ObservedEvent[] = []
let stopObserving: () => void

beforeAll(async () => {
	server = await serveFresh()
	owner = await signUp(server.url)
	alice = await createUserbot(owner)
	await logInOverRest(owner, alice, ALICE)
	bob = await createUserbot(owner)
	await logInOverRest(owner, bob, BOB)
	stopObserving = server.ctx.updates.observe((event) => observed.push(event))
	aliceWs = await openSocket(server.url, owner.access)
	bobWs = await openSocket(server.url, owner.access)
	const kinds = ['updateNewMessage', 'updateMessageSendSucceeded', 'updateFile']
	expect((await aliceWs.command('subscribe', alice, { updates: kinds })).type).toBe('subscribe')
	expect((await bobWs.command('subscribe', bob, { updates: kinds })).type).toBe('subscribe')
})

afterAll(async () => {
	stopObserving()
	aliceWs.close()
	bobWs.close()
	await server.dispose()
})

/** Everything that left the server so far, as text, with the data folder it must not name. */
const leaked = () => {
	const text = JSON.stringify([aliceWs.received, bobWs.received, observed])
	return { dataDir: text.includes(server.dataDir), tdlib: text.includes('/tdlib/') }
}
const NONE = { dataDir: false, tdlib: false }
const documentOf = (message: Td.message): Td.file => {
	if (message.content._ !== 'messageDocument') throw new Error(`not a document: ${message.content._}`)
	return message.content.document.document
}

describe('server paths', () => {
	let fileId = 0

	it('are blanked in the reply, the live updates and the webhooks’ events of a media message', async () => {
		const fd = new FormData()
		fd.append('file', new File([BYTES], 'report.bin'))
		const up = await fetch(`${server.url}/api/userbots/${bob}/files/`, {
			method: 'POST',
			headers: { authorization: `Bearer ${owner.access}` },
			body: fd,
		})
		const { file } = (await up.json()) as { file: string }
		const sent = await bobWs.command('send_message', bob, {
			chat_id: 1001,
			media: { upload: file, media_type: 'document' },
			wait_sent: true,
			webhook: true,
		})
		expect(sent.error).toBeUndefined()
		const mine = documentOf(sent.result as unknown as Td.message)
		// The sender has the file whole: said by the flags and sizes, not by where it lies.
		expect(mine.local).toMatchObject({
			path: '',
			is_downloading_completed: true,
			downloaded_size: BYTES.length,
		})
		// Inside the server TDLib still knows the path (the files route reads it).
		const held = (await server.ctx.runtime!.invoke(bob, { _: 'getFile', file_id: mine.id })) as Td.file
		expect(held.local.path.startsWith(server.dataDir)).toBe(true)

		const received = await aliceWs.next(
			(u) => (u as { update?: { _: string } }).update?._ === 'updateNewMessage',
		)
		const theirs = documentOf((received as unknown as { update: Td.updateNewMessage }).update.message)
		fileId = theirs.id
		expect(theirs.local.path).toBe('')
		expect(observed.some((e) => e.kind === 'command.result')).toBe(true)
		expect(observed.some((e) => e.kind === 'updateNewMessage' && e.userbotId === bob)).toBe(true)
		expect(leaked()).toEqual(NONE)
	})

	it('are blanked in the live updates of a download through the files route', async () => {
		const done = await fetch(`${server.url}/api/userbots/${alice}/files/${fileId}`, {
			headers: { authorization: `Bearer ${owner.access}` },
		})
		expect(done.status).toBe(200)
		expect(new Uint8Array(await done.arrayBuffer())).toEqual(BYTES)
		expect(done.headers.get('content-disposition')).not.toContain('/')
		const last = await aliceWs.next((u) => {
			const update = (u as { update?: { _: string; file?: Td.file } }).update
			return update?._ === 'updateFile' && update.file?.local.is_downloading_completed === true
		})
		expect((last as unknown as { update: Td.updateFile }).update.file.local).toMatchObject({
			path: '',
			is_downloading_completed: true,
			downloaded_size: BYTES.length,
		})
		const held = (await server.ctx.runtime!.invoke(alice, { _: 'getFile', file_id: fileId })) as Td.file
		expect(held.local.path.startsWith(server.dataDir)).toBe(true)
		expect(leaked()).toEqual(NONE)
	})

	it('are blanked in a command that reads a file, and in a push to the company', async () => {
		const history = await bobWs.command('get_chat_history', bob, { chat_id: 1001, limit: 1 })
		const [message] = (history.result as unknown as { messages: Td.message[] }).messages
		expect(documentOf(message as Td.message).local).toMatchObject({
			path: '',
			is_downloading_completed: true,
		})
		const local = { _: 'localFile', path: `${server.dataDir}/tdlib/${alice}/files/x.bin`, downloaded_size: 3 }
		const me = (await (await owner.call('GET', '/accounts/me/')).json()) as { company: { id: number } }
		server.ctx.publish({
			companyId: me.company.id,
			message: { type: 'chat_update', payload: { type: 'pushed', result: { file: { local } } } },
		})
		const pushed = await aliceWs.next((u) => u.payload?.type === 'pushed')
		expect(pushed.payload.result).toEqual({ file: { local: { ...local, path: '' } } })
		expect(leaked()).toEqual(NONE)
	})
})
