import { afterAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../src/server/config'

/** REUSE_PORT, SHUTDOWN_TIMEOUT and TRUSTED_PROXIES: their defaults, and one line for a bad value. */
const dir = mkdtempSync(join(tmpdir(), 'ubg-fleet-config-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the fleet variables', () => {
	it('default to a private port, a 10 s stop and no trusted proxy', () => {
		const c = loadConfig({ DATA_DIR: dir })
		expect({
			reusePort: c.reusePort,
			shutdownTimeoutMs: c.shutdownTimeoutMs,
			trustedProxies: c.trustedProxies,
		}).toEqual({
			reusePort: false,
			shutdownTimeoutMs: 10_000,
			trustedProxies: [],
		})
	})

	it('take what is set', () => {
		const c = loadConfig({
			DATA_DIR: dir,
			REUSE_PORT: 'true',
			SHUTDOWN_TIMEOUT: '2500',
			TRUSTED_PROXIES: ' 10.0.0.0/8 , ::1,2001:db8::/32',
		})
		expect({
			reusePort: c.reusePort,
			shutdownTimeoutMs: c.shutdownTimeoutMs,
			trustedProxies: c.trustedProxies,
		}).toEqual({
			reusePort: true,
			shutdownTimeoutMs: 2500,
			trustedProxies: ['10.0.0.0/8', '::1', '2001:db8::/32'],
		})
	})

	it('stop the start with one line naming a bad one', () => {
		expect(() => loadConfig({ DATA_DIR: dir, REUSE_PORT: 'sometimes' })).toThrow(
			'REUSE_PORT: must be true or false',
		)
		expect(() => loadConfig({ DATA_DIR: dir, SHUTDOWN_TIMEOUT: '10s' })).toThrow(
			'SHUTDOWN_TIMEOUT: must be a whole number',
		)
		expect(() => loadConfig({ DATA_DIR: dir, TRUSTED_PROXIES: '10.0.0.1, nginx' })).toThrow(
			'TRUSTED_PROXIES: must be IP addresses or CIDRs, comma-separated',
		)
	})
})
