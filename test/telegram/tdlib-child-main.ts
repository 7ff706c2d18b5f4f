/**
 * The tests' TDLib child: real TDLib, offline, in a process of its own, as the product runs it in
 * supervisor children. Spawned by `tdlib-child.ts` (never imported by a test: libtdjson is never
 * mapped into the test runner, where one of TDLib's aborts would end the whole run). Every client
 * is the service's own (`createTdlibBackend`, `networkTypeNone` before its parameters), and nothing
 * here lets the network go.
 */
import * as tdl from 'tdl'
import * as v from 'valibot'
import type { BackendClient } from '../../src/runtime/telegram/backend'
import {
	createParseOnlyClient,
	createTdlibBackend,
	type ParseOnlyClient,
} from '../../src/runtime/telegram/tdlib'
import { TdError, type TdRequest } from '../../src/runtime/telegram/types'
import { type ChildMessage, ParentMessage, type WireError } from './tdlib-child-protocol'

const send = (m: ChildMessage) => process.send?.(m)

const wireError = (err: unknown): WireError =>
	err instanceof TdError
		? { code: err.code, message: err.message }
		: { message: err instanceof Error ? err.message : String(err) }

const backend = createTdlibBackend({ apiId: 1, apiHash: '0123456789abcdef0123456789abcdef', offline: true })
const clients = new Map<number, BackendClient>()
let parseOnly: ParseOnlyClient | undefined

async function handle(m: ParentMessage): Promise<unknown> {
	switch (m.op) {
		case 'create': {
			const client = backend.createClient(m.client, m.options)
			clients.set(m.client, client)
			client.onUpdate((update) => send({ type: 'update', client: m.client, update }))
			client.network?.then(
				() => send({ type: 'network', client: m.client }),
				(err: unknown) => send({ type: 'network', client: m.client, error: wireError(err) }),
			)
			client.opened?.then(
				() => send({ type: 'opened', client: m.client }),
				(err: unknown) => send({ type: 'opened', client: m.client, error: wireError(err) }),
			)
			return null
		}
		case 'invoke':
			return need(m.client).invoke(m.request as unknown as TdRequest)
		case 'close':
			await need(m.client).close()
			clients.delete(m.client)
			return null
		case 'judge':
			parseOnly ??= createParseOnlyClient()
			return parseOnly.judge(m.requests)
		case 'execute':
			return tdl.execute(m.request as Parameters<typeof tdl.execute>[0])
		case 'log':
			tdl.setLogMessageCallback(
				m.verbosity,
				m.verbosity === 0 ? null : (level, message) => send({ type: 'log', level, message }),
			)
			return null
		case 'exit':
			// Every client closed, its closed state seen, before the process goes.
			await Promise.all([...clients.values()].map((c) => c.close().catch(() => undefined)))
			await parseOnly?.close()
			setTimeout(() => process.exit(0), 20)
			return null
	}
}

function need(id: number): BackendClient {
	const client = clients.get(id)
	if (!client) throw new Error(`no client ${id}`)
	return client
}

/** One turn of the harness's requests, handled in one turn here, in order. */
const Batch = v.array(ParentMessage)

process.on('message', (raw: unknown) => {
	const parsed = v.safeParse(Batch, raw)
	if (!parsed.success) {
		process.stderr.write('tdlib child: an invalid message was dropped\n')
		return
	}
	for (const m of parsed.output)
		handle(m).then(
			(value) => send({ type: 'result', id: m.id, value: value ?? null }),
			(err: unknown) => send({ type: 'result', id: m.id, error: wireError(err) }),
		)
})
// The harness is gone: nobody is left to answer.
process.on('disconnect', () => process.exit(0))
send({ type: 'ready', pid: process.pid })
