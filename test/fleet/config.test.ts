import { afterAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createLogger } from '../../src/common/util/logger'
import { gatewayEnv, startGateways } from '../../src/fleet/gateways'
import { loadConfig } from '../../src/server/config'

/** GATEWAYS and GATEWAY_INDEX: what they need, one line when it is missing, what each gateway gets. */
const dir = mkdtempSync(join(tmpdir(), 'ubg-gateways-config-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const bus = { ROLE: 'gateway', BUS_URL: 'nats://127.0.0.1:4222', DATA_DIR: dir }
const line = (env: Record<string, string>) => {
	try {
		loadConfig(env)
		return 'loaded'
	} catch (err) {
		return (err as Error).message
	}
}

describe('GATEWAYS', () => {
	it('is one process by default, a number, or one per core', () => {
		expect(loadConfig({ DATA_DIR: dir }).gateways).toEqual({ count: 1 })
		expect(loadConfig({ ...bus, GATEWAYS: '4' }).gateways).toEqual({ count: 4 })
		expect(loadConfig({ ...bus, GATEWAYS: 'auto' }).gateways).toEqual({
			count: Math.min(64, availableParallelism()),
		})
		expect(loadConfig({ ...bus, GATEWAYS: '4', GATEWAY_INDEX: '3' }).gateways).toEqual({ count: 4, index: 3 })
	})

	it('answers a bad or contradictory setting with one line', () => {
		expect(line({ ...bus, GATEWAYS: '0' })).toBe('GATEWAYS: must be at least 1')
		expect(line({ ...bus, GATEWAYS: 'many' })).toBe('GATEWAYS: must be auto or a whole number from 1 to 64')
		expect(line({ DATA_DIR: dir, GATEWAYS: '2' })).toBe(
			'GATEWAYS: several gateway processes need ROLE=gateway (they share the shards on the bus), not ROLE=all',
		)
		expect(line({ DATA_DIR: dir, GATEWAYS: '2', ROLE: 'gateway' })).toBe(
			'ROLE: gateway needs BUS_URL (a NATS server joining gateways and shards)',
		)
		expect(line({ ...bus, GATEWAYS: '2', REUSE_PORT: 'false' })).toBe(
			'REUSE_PORT: GATEWAYS=2 shares one port: leave REUSE_PORT unset or true',
		)
		expect(line({ ...bus, GATEWAYS: '2', REUSE_PORT: 'true' })).toBe('loaded')
		expect(line({ ...bus, GATEWAYS: '4', METRICS_ADDRESS: '127.0.0.1:65534' })).toBe(
			'METRICS_ADDRESS: 4 gateways take 4 ports from 65534, past 65535',
		)
		expect(line({ ...bus, GATEWAYS: '2', GATEWAY_INDEX: '3' })).toBe(
			'GATEWAY_INDEX: must be at most GATEWAYS (2)',
		)
	})
})

describe('the parent of the gateways', () => {
	const config = loadConfig({
		...bus,
		GATEWAYS: '3',
		METRICS_ADDRESS: '[::1]:9100',
		SHUTDOWN_TIMEOUT: '1000',
	})
	const log = createLogger('silent')

	it('gives each gateway the shared port, its index and its own metrics port', () => {
		const env = gatewayEnv({ config, env: { KEPT: 'yes', REUSE_PORT: 'false' }, log, port: 8123 }, 3)
		expect(env).toMatchObject({
			KEPT: 'yes',
			GATEWAYS: '3',
			GATEWAY_INDEX: '3',
			REUSE_PORT: 'true',
			PORT: '8123',
			METRICS_ADDRESS: '[::1]:9102',
		})
	})

	it('fails the start with one line when a gateway exits before it listens, and stops the others', async () => {
		// Gateways 1 and 3 start and wait (never listening); gateway 2 exits with 2 once they run.
		const script = join(dir, 'gateway.ts')
		await Bun.write(
			script,
			[
				'import { existsSync, writeFileSync } from "node:fs"',
				`const dir = ${JSON.stringify(dir)}`,
				'const i = process.env.GATEWAY_INDEX',
				'const file = (n) => dir + "/pid-" + n',
				'if (i !== "2") writeFileSync(file(i), String(process.pid))',
				'else while (!existsSync(file(1)) || !existsSync(file(3))) await Bun.sleep(10)',
				'if (i === "2") process.exit(2)',
				'setInterval(() => {}, 1000)',
			].join('\n'),
		)
		const outcome = await startGateways({
			config,
			env: {},
			log,
			port: 1,
			command: [process.execPath, script],
		})
		expect(outcome).toEqual({ ok: false, line: 'startup error: gateway 2 exited with 2 before it listened' })
		for (const i of [1, 3]) {
			const pid = Number(await Bun.file(join(dir, `pid-${i}`)).text())
			expect(() => process.kill(pid, 0)).toThrow()
		}
	})
})
