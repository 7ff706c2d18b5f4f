import { Counter, Gauge, Histogram, Registry } from 'prom-client'
import { routeTally } from './route-tally'

/**
 * The app's Prometheus metrics (docs/operator.md), on a registry of its own: two apps in one process
 * (as tests build them) share nothing, and prom-client's global registry is never touched.
 *
 * Labels stay bounded: a route is its pattern (`/api/userbots/:id/`), a command its wire name, an
 * outcome one of a few words; no label names a userbot or a user, so 10,000 userbots make no more
 * series than one. What is cheap to know only at scrape time (sockets, userbots by state, the
 * supervisor children) is read then, by the collectors added with `collect`.
 */
export type CommandOutcome = 'ok' | 'error' | 'timeout' | 'dropped'

export interface Metrics {
	readonly registry: Registry
	/** One HTTP request answered. */
	request(method: string, route: string, status: number, seconds: number): void
	/** One WebSocket command (or connection frame) answered, or dropped with its socket. */
	command(action: string, outcome: CommandOutcome, seconds: number): void
	/** One password log-in refused (either family). */
	loginFailed(): void
	/** A gauge's value, read at each scrape. */
	gauge(
		name: string,
		help: string,
		labels: readonly string[],
		read: (set: GaugeSetter) => Promise<void> | void,
	): void
	/** The exposition text and its content type. */
	render(): Promise<{ text: string; contentType: string }>
}

export type GaugeSetter = (value: number, labels?: Record<string, string>) => void

const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

export function createMetrics(): Metrics {
	const registry = new Registry()
	const registers = [registry]
	const requests = routeTally(registry, LATENCY_BUCKETS)
	const commands = new Counter({
		name: 'ubg_ws_commands_total',
		help: 'WebSocket commands answered, by command and outcome (ok, error, timeout, dropped).',
		labelNames: ['command', 'outcome'],
		registers,
	})
	const commandSeconds = new Histogram({
		name: 'ubg_ws_command_duration_seconds',
		help: 'Time from a command frame to its reply, by command.',
		labelNames: ['command'],
		buckets: LATENCY_BUCKETS,
		registers,
	})
	const loginFailures = new Counter({
		name: 'ubg_login_failures_total',
		help: 'Password log-ins refused.',
		registers,
	})
	return {
		registry,
		request: (method, route, status, seconds) => requests.record(method, route, status, seconds),
		command(action, outcome, seconds) {
			commands.inc({ command: action, outcome })
			commandSeconds.observe({ command: action }, seconds)
		},
		loginFailed: () => loginFailures.inc(),
		gauge(name, help, labels, read) {
			new Gauge({
				name,
				help,
				labelNames: [...labels],
				registers,
				async collect() {
					this.reset()
					await read((value, values) => (values ? this.set(values, value) : this.set(value)))
				},
			})
		},
		async render() {
			return { text: await registry.metrics(), contentType: registry.contentType }
		},
	}
}
