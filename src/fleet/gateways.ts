import { fileURLToPath } from 'node:url'
import type { Subprocess } from 'bun'
import { bundled } from '../build/bundled'
import type { Logger } from '../common/util/logger'
import type { Config } from '../server/config'

/**
 * `ROLE=gateway GATEWAYS=N` (docs/shards.md#gateways-on-one-host): this process runs no app of its
 * own; it starts N gateway processes of the same entry on one port (SO_REUSEPORT, the kernel spreads
 * the connections), restarts one that dies, and stops them all on SIGTERM or SIGINT. One gateway
 * process tops out at one core on the command path; N of them use N.
 */

/** What a gateway process sends its parent once it listens (src/fleet/child.ts). */
export const READY_MESSAGE = 'gateway-ready'
/** The first restart waits this long, each one after a start that did not get to listen twice as long. */
const RESTART_BASE_MS = 250
const RESTART_MAX_MS = 30_000
/** What the parent adds to SHUTDOWN_TIMEOUT before it kills a gateway that does not stop. */
const STOP_GRACE_MS = 2_000

/**
 * The gateway's command: the server's own entry, serving. From source, Bun is told not to read `.env`
 * again: the child gets the parent's environment, `.env` already in it, plus what the parent sets.
 */
export function gatewayCommand(): string[] {
	if (bundled()) return [process.execPath]
	return [process.execPath, '--no-env-file', fileURLToPath(new URL('../entry/main.ts', import.meta.url))]
}

interface Slot {
	index: number
	proc?: Subprocess
	ready: boolean
	/** Exits in a row without getting to listen: the next restart's backoff. */
	failures: number
	timer?: ReturnType<typeof setTimeout>
	/** Set when it exited during the stop: whether it stopped cleanly. */
	clean?: boolean
}

export interface FleetOptions {
	config: Config
	/** The environment the gateways inherit (the parent's, `.env` included). */
	env: Record<string, string | undefined>
	log: Logger
	/** The port every gateway listens on (PORT, or the free one the parent found for PORT=0). */
	port: number
	command?: string[]
}

export interface Fleet {
	/** The gateways' process ids, by index (1 to N); absent while one restarts. */
	pids(): (number | undefined)[]
	/** Stops every gateway (SIGTERM) and waits: 0 when all stopped cleanly within the bound. */
	stop(): Promise<0 | 1>
}

export type FleetStart = { ok: true; fleet: Fleet } | { ok: false; line: string }

/** The variables one gateway gets on top of the parent's environment. */
export function gatewayEnv(opts: FleetOptions, index: number): Record<string, string> {
	const { config, port } = opts
	const env: Record<string, string> = {}
	for (const [key, value] of Object.entries(opts.env)) if (value !== undefined) env[key] = value
	Object.assign(env, {
		GATEWAYS: String(config.gateways.count),
		GATEWAY_INDEX: String(index),
		REUSE_PORT: 'true',
		PORT: String(port),
	})
	const metrics = config.metrics.address
	if (metrics && metrics.port !== 0) {
		const host = metrics.host.includes(':') ? `[${metrics.host}]` : metrics.host
		env.METRICS_ADDRESS = `${host}:${metrics.port + index - 1}`
	}
	return env
}

/**
 * Starts the N gateways and resolves once every one listens. One that exits before it listens fails
 * the start (it printed its own `configuration error: ...` or `startup error: ...`): the others are
 * stopped and the line says which one.
 */
export async function startGateways(opts: FleetOptions): Promise<FleetStart> {
	const { config, log } = opts
	const command = opts.command ?? gatewayCommand()
	const slots: Slot[] = Array.from({ length: config.gateways.count }, (_, i) => ({
		index: i + 1,
		ready: false,
		failures: 0,
	}))
	let stopping = false
	let starting = true
	let settle: (outcome: string | null) => void = () => undefined
	const started = new Promise<string | null>((resolve) => {
		settle = resolve
	})

	const spawn = (slot: Slot) => {
		slot.ready = false
		const proc = Bun.spawn(command, {
			env: gatewayEnv(opts, slot.index),
			stdio: ['ignore', 'inherit', 'inherit'],
			serialization: 'json',
			ipc: (message: unknown) => {
				// Our own child, still checked: only the one message it may send means anything.
				if (!isReady(message) || slot.proc !== proc || slot.ready) return
				slot.ready = true
				slot.failures = 0
				log.info('gateway ready', { gateway: slot.index, pid: proc.pid })
				if (starting && slots.every((s) => s.ready)) settle(null)
			},
		})
		slot.proc = proc
		log.info('gateway started', { gateway: slot.index, pid: proc.pid })
		void proc.exited.then(() => exited(slot, proc))
	}

	const exited = (slot: Slot, proc: Subprocess) => {
		if (slot.proc !== proc) return
		const wasReady = slot.ready
		slot.proc = undefined
		slot.ready = false
		const fields = { gateway: slot.index, pid: proc.pid, code: proc.exitCode, signal: proc.signalCode }
		if (stopping) {
			// Killed by the stop before it had its handlers: nothing of its own was lost.
			slot.clean = proc.exitCode === 0 || (!wasReady && proc.signalCode === 'SIGTERM')
			return
		}
		log.warn('gateway exited', fields)
		if (starting && !wasReady) {
			settle(
				`startup error: gateway ${slot.index} exited with ${proc.exitCode ?? proc.signalCode} before it listened`,
			)
			return
		}
		if (!wasReady) slot.failures++
		const delay = Math.min(RESTART_MAX_MS, RESTART_BASE_MS * 2 ** slot.failures)
		log.info('gateway restarting', { gateway: slot.index, in_ms: delay })
		slot.timer = setTimeout(() => {
			slot.timer = undefined
			if (!stopping) spawn(slot)
		}, delay)
	}

	const stop = (): Promise<0 | 1> => {
		stopping = true
		return stopSlots(slots, config.shutdownTimeoutMs + STOP_GRACE_MS, log)
	}

	for (const slot of slots) spawn(slot)
	const failure = await started
	starting = false
	const fleet: Fleet = { pids: () => slots.map((s) => s.proc?.pid), stop }
	if (failure === null) return { ok: true, fleet }
	await stop()
	return { ok: false, line: failure }
}

/**
 * Stops every gateway (SIGTERM, then SIGKILL past `timeoutMs`): 0 when each stopped in time and
 * cleanly, else 1.
 */
async function stopSlots(slots: Slot[], timeoutMs: number, log: Logger): Promise<0 | 1> {
	const waits: Promise<unknown>[] = []
	for (const slot of slots) {
		clearTimeout(slot.timer)
		const proc = slot.proc
		if (!proc) continue
		waits.push(proc.exited)
		proc.kill('SIGTERM')
	}
	let timer: ReturnType<typeof setTimeout> | undefined
	const inTime = await Promise.race([
		Promise.all(waits).then(() => true),
		new Promise<false>((resolve) => {
			timer = setTimeout(() => resolve(false), timeoutMs)
		}),
	])
	clearTimeout(timer)
	if (!inTime) {
		log.error('a gateway did not stop within SHUTDOWN_TIMEOUT: killed', {
			gateways: slots.filter((s) => s.proc).map((s) => s.index),
		})
		for (const slot of slots) slot.proc?.kill('SIGKILL')
		await Promise.all(waits)
		return 1
	}
	return slots.every((s) => s.clean !== false) ? 0 : 1
}

function isReady(message: unknown): boolean {
	return (
		typeof message === 'object' && message !== null && (message as { type?: unknown }).type === READY_MESSAGE
	)
}
