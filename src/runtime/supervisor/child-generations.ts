import type { Subprocess } from 'bun'
import type { Transport } from '../../common/transport'
import { listenSocket, socketPath } from '../../common/transport/socket'
import type { Logger } from '../../common/util/logger'
import type { Capacity } from './capacity'
import { spawnChild } from './child-process'
import { type ChildSettings, parseChildMessage } from './protocol'

/** One child process of a supervisor, from its spawn until it is down. */
export interface Generation {
	proc: Subprocess
	token: string
	transport?: Transport
	readyAt: number
	down: boolean
	readyTimer?: ReturnType<typeof setTimeout>
}

/** How long a child has, and how it is restarted (SupervisorOptions). */
export interface GenerationOptions {
	dataDir: string
	transport: 'socket' | 'ipc'
	name?: string
	readyTimeoutMs?: number
	restartMinMs?: number
	restartMaxMs?: number
	restartResetMs?: number
}

/** What the supervisor client does as its children come and go. */
export interface GenerationHooks {
	/** Whether the client is closing: a child that goes is not replaced. */
	closing(): boolean
	/** What the child runs with, sent in answer to its `hello`. */
	settings(): ChildSettings
	/** The child said `ready`: resolves once the clients it is to restore are started again. */
	ready(gen: Generation, t: Transport, capacity: Capacity | undefined): Promise<unknown>
	/** A message of an accepted child. */
	message(gen: Generation, raw: unknown): void
	/** The current child went: everything it had in flight fails; answers how many requests did. */
	down(reason: string): number
	/** A child that had started went (not the first start): its clients are to be told. */
	lost(): void
	/** A child after the first is ready and has restored its clients. */
	restarted(): void
}

/**
 * The children of one supervisor, one generation at a time: each spawned with a fresh token and
 * only how to reach this process, accepted once its first message is `hello` with that token (it is
 * answered with its settings) and its second `ready`; taken for down when it exits, its connection
 * closes, or it is not ready in time. A child that goes is replaced after a growing pause (the short
 * one again once a child stayed up `restartResetMs`).
 */
export class ChildGenerations {
	private gen: Generation | null = null
	private failures = 0
	private restartTimer?: ReturnType<typeof setTimeout>
	private firstReady?: { resolve: () => void; reject: (e: Error) => void }
	private socket?: { stop: () => void; path: string; cleanup: () => void }

	constructor(
		private readonly opts: GenerationOptions,
		private readonly log: Logger,
		private readonly hooks: GenerationHooks,
	) {}

	/** The child now (it may be down). */
	get current(): Generation | null {
		return this.gen
	}

	/** The connected child's transport, while it is up. */
	transport(): Transport | undefined {
		const t = this.gen?.transport
		return t && !this.gen?.down ? t : undefined
	}

	/** Spawns the first child and waits until it is ready; rejects if it goes first. */
	async start(): Promise<void> {
		if (this.opts.transport === 'socket') {
			const { path, cleanup } = socketPath(
				this.opts.dataDir,
				`supervisor-${process.pid}-${this.opts.name ?? '0'}`,
			)
			const server = listenSocket(
				path,
				(t) => this.onConnection(t),
				() => this.log.warn('invalid line from supervisor dropped'),
			)
			this.socket = { stop: server.stop, path, cleanup }
		}
		const ready = new Promise<void>((resolve, reject) => {
			this.firstReady = { resolve, reject }
		})
		this.spawn()
		await ready
	}

	private spawn() {
		const token = crypto.randomUUID()
		// Only how to reach this process: its settings come in answer to its hello.
		const env: Record<string, string> = { SUPERVISOR_TOKEN: token }
		if (this.socket) env.SUPERVISOR_SOCKET = this.socket.path
		const { proc, ipc } = spawnChild({ transport: this.opts.transport, env, log: this.log })
		const gen: Generation = { proc, token, readyAt: 0, down: false }
		this.gen = gen
		void proc.exited.then((code) => this.onDown(gen, `exited with ${code}`))
		gen.readyTimer = setTimeout(
			() => this.onDown(gen, 'not ready in time'),
			this.opts.readyTimeoutMs ?? 15_000,
		)
		if (ipc) this.onConnection(ipc)
	}

	/**
	 * A connection counts once its first message is `hello` with the current child's token (it is
	 * answered with the child's settings) and its second `ready`.
	 */
	private onConnection(t: Transport) {
		let greeted: Generation | null = null
		let accepted: Generation | null = null
		t.onMessage((raw) => {
			if (accepted) return this.hooks.message(accepted, raw)
			const parsed = parseChildMessage(raw)
			const gen = this.gen
			const expected = greeted ? 'ready' : 'hello'
			const ok =
				parsed.ok &&
				parsed.message.type === expected &&
				gen !== null &&
				!gen.down &&
				(greeted ? greeted === gen : parsed.message.type === 'hello' && parsed.message.token === gen.token)
			if (!ok || !gen || !parsed.ok) {
				this.log.warn('supervisor connection refused')
				return t.close()
			}
			if (parsed.message.type === 'hello') {
				greeted = gen
				return t.send({ type: 'settings', settings: this.hooks.settings() })
			}
			accepted = gen
			this.onReady(gen, t, parsed.message.type === 'ready' ? parsed.message.capacity : undefined)
		})
	}

	private onReady(gen: Generation, t: Transport, capacity: Capacity | undefined) {
		clearTimeout(gen.readyTimer)
		gen.transport = t
		gen.readyAt = Date.now()
		t.onClose(() => this.onDown(gen, 'connection closed'))
		const restored = this.hooks.ready(gen, t, capacity)
		if (this.firstReady) {
			this.firstReady.resolve()
			this.firstReady = undefined
			return
		}
		void restored.then(() => {
			if (gen !== this.gen || gen.down) return
			this.hooks.restarted()
		})
	}

	/** The child went (or is taken for gone): killed if need be, and replaced after a pause. */
	onDown(gen: Generation, reason: string): void {
		if (gen.down) return
		gen.down = true
		clearTimeout(gen.readyTimer)
		if (gen.proc.exitCode === null && !gen.proc.killed) gen.proc.kill('SIGKILL')
		gen.transport?.close()
		if (gen !== this.gen) return
		const failed = this.hooks.down(reason)
		if (this.hooks.closing()) return
		this.log.warn('supervisor down', { reason, failed })
		if (this.firstReady) {
			this.firstReady.reject(new Error(`the supervisor did not start: ${reason}`))
			this.firstReady = undefined
			return
		}
		this.hooks.lost()
		if (gen.readyAt && Date.now() - gen.readyAt > (this.opts.restartResetMs ?? 30_000)) this.failures = 0
		const delay = Math.min(
			(this.opts.restartMinMs ?? 100) * 2 ** this.failures,
			this.opts.restartMaxMs ?? 10_000,
		)
		this.failures++
		this.restartTimer = setTimeout(() => {
			if (!this.hooks.closing()) this.spawn()
		}, delay)
	}

	/**
	 * Ends the child: `shutdown` asks a connected one to close its clients and exit (answering when
	 * it did); one still starting is told to go at once; past `timeoutMs` it is killed.
	 */
	async end(timeoutMs: number, shutdown: (t: Transport) => Promise<unknown>): Promise<void> {
		clearTimeout(this.restartTimer)
		const gen = this.gen
		if (gen && !gen.down && gen.transport) {
			await shutdown(gen.transport).catch(() => undefined)
		} else if (gen && !gen.down) {
			// A child still starting (a restart under way) holds no client yet: told to go at once, not
			// waited for until the close times out.
			gen.proc.kill('SIGTERM')
		}
		if (!gen) return
		const exited = await Promise.race([
			gen.proc.exited.then(() => true),
			Bun.sleep(timeoutMs).then(() => false),
		])
		if (!exited) {
			gen.proc.kill('SIGKILL')
			await gen.proc.exited
		}
		this.onDown(gen, 'closed')
	}

	/** Stops listening for children (the socket is removed). */
	unlisten(): void {
		this.socket?.stop()
		this.socket?.cleanup()
	}
}
