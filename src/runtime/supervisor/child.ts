import { appendFileSync } from 'node:fs'
import { join } from 'node:path'
import * as v from 'valibot'
import type { Transport } from '../../common/transport'
import { createIpcChildTransport } from '../../common/transport/ipc'
import { connectSocket } from '../../common/transport/socket'
import { createBackend, type OpenEmulator } from '../telegram/backend'
import { holdClientsLock } from '../telegram/clients-lock'
import { descriptorCapacity } from './capacity'
import { createChildHost } from './child-host'
import { type ChildMessage, type ChildSettings, parseParentMessage } from './protocol'
import { setDescriptorLimit } from './rlimit'

/**
 * Supervisor child (`main.ts supervisor-child`, started by src/entry/supervisor-child.ts), spawned by
 * `client.ts`. Hosts the TDLib (or emulator) clients; TDLib is only ever touched here. Its environment says only how to reach its
 * parent; it says hello, and runs the settings the parent answers with (the parent's configuration,
 * checked there once: protocol.ts `ChildSettings`).
 */
const EnvSchema = v.object({
	SUPERVISOR_TRANSPORT: v.picklist(['socket', 'ipc']),
	SUPERVISOR_SOCKET: v.optional(v.string()),
	SUPERVISOR_TOKEN: v.optional(v.string()),
})

/** Connects to the parent, says hello, and resolves with the settings it answers. */
async function connect(
	env: v.InferOutput<typeof EnvSchema>,
): Promise<{ transport: Transport; settings: ChildSettings }> {
	let transport: Transport
	if (env.SUPERVISOR_TRANSPORT === 'socket') {
		if (!env.SUPERVISOR_SOCKET) throw new Error('SUPERVISOR_SOCKET is not set')
		transport = await connectSocket(env.SUPERVISOR_SOCKET, (line) =>
			process.stderr.write(`invalid line from parent dropped (${line.length} chars)\n`),
		)
	} else {
		transport = createIpcChildTransport()
	}
	const settings = new Promise<ChildSettings>((resolve, reject) => {
		transport.onClose(() => reject(new Error('the parent went before it sent the settings')))
		// Only the first message is this one's (the transport keeps every listener).
		let first = true
		transport.onMessage((raw) => {
			if (!first) return
			first = false
			const parsed = parseParentMessage(raw)
			if (parsed.ok && parsed.message.type === 'settings') resolve(parsed.message.settings)
			else
				reject(new Error(`the parent's first message is no settings${parsed.ok ? '' : `: ${parsed.error}`}`))
		})
	})
	transport.send({ type: 'hello', pid: process.pid, token: env.SUPERVISOR_TOKEN })
	return { transport, settings: await settings }
}

/** The environment: only how to reach the parent. */
function readEnv(): v.InferOutput<typeof EnvSchema> {
	const parsed = v.safeParse(EnvSchema, process.env)
	if (!parsed.success) {
		const key = parsed.issues[0].path?.[0]?.key
		throw new Error(`environment: ${String(key ?? 'a variable')} is missing or invalid`)
	}
	return parsed.output
}

type Send = (m: ChildMessage) => void

/**
 * First, before TDLib opens anything: the soft descriptor limit up to the hard one (or down to
 * CHILD_MAX_FDS), and the clients it allows (docs/capacity.md).
 */
async function raiseDescriptors(settings: ChildSettings, send: Send) {
	const fds = await setDescriptorLimit(settings.maxFds)
	if (fds) return descriptorCapacity(fds)
	send({
		type: 'log',
		level: 'info',
		msg: 'the file descriptor limit cannot be read or raised on this system; no descriptor capacity is enforced',
	})
	return undefined
}

function openBackend(settings: ChildSettings, send: Send, openEmulator: OpenEmulator) {
	return createBackend({
		backend: settings.backend,
		apiId: settings.telegram?.apiId,
		apiHash: settings.telegram?.apiHash,
		offline: settings.offline,
		emulatorFloodLimits: settings.emulatorFloodLimits,
		// Where the compiled binary keeps the copy of its embedded libtdjson that TDLib is loaded from.
		cacheDir: join(settings.dataDir, 'cache'),
		// The emulator's one cloud for every child and shard on this DATA_DIR/tdlib.
		dataDir: settings.dataDir,
		log: (level, msg, fields) => send({ type: 'log', level, msg, fields }),
		openEmulator,
	})
}

/** One short line per append to the run log: the kernel keeps appends whole and in order across processes. */
function runRecorder(settings: ChildSettings) {
	const runLog = settings.runLog
	if (!runLog) return undefined
	return (event: string, userbotId: number) =>
		appendFileSync(
			runLog,
			`${JSON.stringify({ supervisor: settings.label, pid: process.pid, userbotId, event, at: Date.now() })}\n`,
		)
}

/** A hung client that does not even close keeps its database locked: only a new child frees it. */
function exitWhenStuck(send: Send) {
	return (userbotId: number) => {
		send({
			type: 'log',
			level: 'error',
			msg: 'a hung TDLib client did not close; the supervisor child exits to start every client again',
			fields: { userbotId },
		})
		setTimeout(() => process.exit(1), 20)
	}
}

/**
 * The ways out: a `shutdown` from the parent, the parent gone, or a signal to the child itself
 * (Ctrl-C reaches the whole process group). What the backend holds goes first (the emulated cloud
 * writes its state), once.
 */
function wireExits(
	transport: Transport,
	host: ReturnType<typeof createChildHost>,
	backend: { close?: () => Promise<void> },
	clientsLock: { release: () => void },
) {
	let released: Promise<void> | undefined
	const release = () => {
		released ??= (backend.close?.() ?? Promise.resolve())
			.catch(() => undefined)
			.finally(() => clientsLock.release())
		return released
	}
	const exit = () => {
		void release().then(() => {
			transport.close()
			// Let the last batched write leave before the process goes.
			setTimeout(() => process.exit(0), 20)
		})
	}
	transport.onMessage((m) => host.handle(m, exit))
	// Nobody is left to answer, or the child is told to go: every client is closed (its closed state
	// seen, or 5 s) before the process goes, as at a shutdown.
	const closeAll = () =>
		void host
			.closeAll()
			.then(release)
			.finally(() => process.exit(0))
	transport.onClose(closeAll)
	for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, closeAll)
}

async function main(openEmulator: OpenEmulator) {
	const { transport, settings } = await connect(readEnv())
	const send: Send = (m) => transport.send(m)
	const capacity = await raiseDescriptors(settings, send)
	// Held for the process's life: `backup` sees that clients run here (docs/operator.md#backups).
	const clientsLock = holdClientsLock(join(settings.dataDir, 'tdlib'))
	const backend = await openBackend(settings, send, openEmulator)
	const host = createChildHost({
		backend,
		dataDir: settings.dataDir,
		send,
		capacity,
		record: runRecorder(settings),
		probe: settings.probe,
		stuck: exitWhenStuck(send),
	})
	wireExits(transport, host, backend, clientsLock)
	send({ type: 'ready', pid: process.pid, capacity })
}

/**
 * Runs this process as a supervisor child. The emulator, which is built on the runtime, is handed in
 * by the entry (src/entry/supervisor-child.ts): the runtime never imports it.
 */
export function runSupervisorChild(parts: { openEmulator: OpenEmulator }): void {
	main(parts.openEmulator).catch((err) => {
		process.stderr.write(
			`supervisor child failed to start: ${err instanceof Error ? err.message : String(err)}\n`,
		)
		process.exit(1)
	})
}
