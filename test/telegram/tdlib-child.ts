import type { Subprocess } from 'bun'
import * as v from 'valibot'
import type { BackendClient, ClientOptions } from '../../src/runtime/telegram/backend'
import type { ParseVerdict } from '../../src/runtime/telegram/tdlib'
import { TdError, type TdRequest, type TdUpdate } from '../../src/runtime/telegram/types'
import { ChildMessage, type ParentMessage, type WireError } from './tdlib-child-protocol'

/**
 * Real TDLib for the tests, in a child process (`tdlib-child-main.ts`), never in the test runner:
 * one of TDLib's own aborts there ends that child and fails the test that used it, with TDLib's
 * last words, instead of ending the whole run. The child's clients are the service's own
 * (`createTdlibBackend`, offline); here each is a `BackendClient` whose requests cross to the child.
 */
export interface TdlibChild {
	readonly pid: number
	/** A client of the service's real backend in the child, on these folders. */
	createClient(options: ClientOptions): BackendClient
	/** Real TDLib's parse-only verdict on each request (`createParseOnlyClient` in the child). */
	judge(requests: readonly object[]): Promise<ParseVerdict[]>
	/** `tdl.execute` in the child: TDLib's synchronous requests (its log settings among them). */
	execute(request: { _: string } & Record<string, unknown>): Promise<unknown>
	/** TDLib's log lines up to `verbosity` go to `listener` (0: none). */
	onLog(verbosity: number, listener: ((level: number, message: string) => void) | null): Promise<void>
	/** Closes every client (each one's closed state seen), then the child exits. */
	stop(): Promise<void>
}

const CHILD_MAIN = new URL('./tdlib-child-main.ts', import.meta.url).pathname

interface Pending {
	resolve: (value: unknown) => void
	reject: (err: Error) => void
}

/** A message to the child before its id is given (each member of the union without its `id`). */
type Outgoing = ParentMessage extends infer M ? (M extends unknown ? Omit<M, 'id'> : never) : never

const toError = (e: WireError) =>
	e.code === undefined ? new Error(e.message) : new TdError(e.code, e.message)

export async function startTdlibChild(): Promise<TdlibChild> {
	const pending = new Map<number, Pending>()
	const updates = new Map<number, Array<(u: TdUpdate) => void>>()
	const networks = new Map<number, Pending>()
	const openings = new Map<number, Pending>()
	let logListener: ((level: number, message: string) => void) | null = null
	let nextId = 1
	let nextClient = 1
	let gone: Error | undefined
	let ready: (pid: number) => void = () => {}
	const started = new Promise<number>((resolve) => {
		ready = resolve
	})
	const stderr: string[] = []

	const onMessage = (raw: unknown) => {
		const parsed = v.safeParse(ChildMessage, raw)
		if (!parsed.success) return
		const m = parsed.output
		switch (m.type) {
			case 'ready':
				return ready(m.pid)
			case 'result': {
				const p = pending.get(m.id)
				pending.delete(m.id)
				if (m.error) p?.reject(toError(m.error))
				else p?.resolve(m.value)
				return
			}
			case 'update':
				for (const l of updates.get(m.client) ?? []) l(m.update as unknown as TdUpdate)
				return
			case 'network':
			case 'opened': {
				const n = (m.type === 'network' ? networks : openings).get(m.client)
				if (m.error) n?.reject(toError(m.error))
				else n?.resolve(undefined)
				return
			}
			case 'log':
				logListener?.(m.level, m.message)
		}
	}

	const proc: Subprocess = Bun.spawn([process.execPath, '--no-env-file', CHILD_MAIN], {
		ipc: onMessage,
		serialization: 'json',
		stdout: 'inherit',
		stderr: 'pipe',
		env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
	})
	void (async () => {
		const decoder = new TextDecoder()
		for await (const chunk of proc.stderr as ReadableStream<Uint8Array>) {
			stderr.push(decoder.decode(chunk))
			if (stderr.length > 20) stderr.shift()
		}
	})()
	void proc.exited.then((code) => {
		gone = new Error(
			`the TDLib child exited (${proc.signalCode ?? `code ${code}`})${stderr.length ? `: ${stderr.join('').slice(-600)}` : ''}`,
		)
		for (const p of [...pending.values(), ...networks.values(), ...openings.values()]) p.reject(gone)
		pending.clear()
		networks.clear()
		openings.clear()
		ready(0)
	})

	// What one turn of the tests' code asks goes to the child as one batch, handled there in one
	// turn: requests a test makes together (a `close` and what follows it) reach TDLib together.
	let batch: ParentMessage[] = []
	const flush = () => {
		const out = batch
		batch = []
		if (!gone) proc.send(out)
	}
	const request = (m: Outgoing): Promise<unknown> => {
		if (gone) return Promise.reject(gone)
		const id = nextId++
		return new Promise((resolve, reject) => {
			pending.set(id, { resolve, reject })
			if (batch.push({ ...m, id } as ParentMessage) === 1) setImmediate(flush)
		})
	}

	const pid = await started
	if (gone) throw gone
	return {
		pid,
		createClient(options) {
			const client = nextClient++
			const settles = (into: Map<number, Pending>) => {
				const p = new Promise<void>((resolve, reject) => {
					into.set(client, { resolve: () => resolve(), reject })
				})
				p.catch(() => undefined)
				return p
			}
			const network = settles(networks)
			const opened = settles(openings)
			// The child handles its messages in the order sent: the client exists by its first request.
			const made = request({ op: 'create', client, options })
			made.catch(() => undefined)
			return {
				network,
				opened,
				invoke: (req: TdRequest) =>
					request({ op: 'invoke', client, request: req as unknown as { _: string } }),
				onUpdate(listener) {
					updates.set(client, [...(updates.get(client) ?? []), listener])
				},
				async close() {
					await request({ op: 'close', client })
				},
			}
		},
		judge: (requests) =>
			request({ op: 'judge', requests: requests as Array<Record<string, unknown>> }) as Promise<
				ParseVerdict[]
			>,
		execute: (req) => request({ op: 'execute', request: req }),
		async onLog(verbosity, listener) {
			logListener = listener
			await request({ op: 'log', verbosity })
		},
		async stop() {
			if (!gone) await request({ op: 'exit' }).catch(() => undefined)
			await proc.exited
		},
	}
}
