import { afterAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { outboxKind } from '../../../plugins/webhooks/outbox'
import { WEBHOOK_SETTINGS } from '../../../plugins/webhooks/settings'
import { loadConfig } from '../../../src/server/config'

describe('where the webhooks outbox lives (WEBHOOK_OUTBOX)', () => {
	const dataDir = mkdtempSync(join(tmpdir(), 'ubg-outbox-config-'))
	afterAll(() => rmSync(dataDir, { recursive: true, force: true }))
	const base = { DATA_DIR: dataDir }
	// The plugin's settings, read as the app reads them when it loads the plugin (the core's bus beside).
	const hooks = (env: Record<string, string>) => {
		const all = { ...base, ...env }
		return WEBHOOK_SETTINGS.read(all, {}, { bus: loadConfig(all).bus })
	}

	it('is JetStream on a bus and the database otherwise, unless told', () => {
		expect(outboxKind(hooks({}), true)).toBe('jetstream')
		expect(outboxKind(hooks({}), false)).toBe('database')
		expect(outboxKind(hooks({ WEBHOOK_OUTBOX: 'database' }), true)).toBe('database')
	})

	it('refuses jetstream without a bus, and a JetStream age not above the retry period', () => {
		expect(() => hooks({ WEBHOOK_OUTBOX: 'jetstream' })).toThrow(
			'WEBHOOK_OUTBOX: jetstream needs BUS_URL (the outbox lives on the bus)',
		)
		const bus = { BUS_URL: 'nats://127.0.0.1:4222', ROLE: 'gateway' }
		expect(() => hooks({ ...bus, WEBHOOK_RETRY_FOR: '700000000' })).toThrow(
			'WEBHOOK_JS_MAX_AGE: must be longer than WEBHOOK_RETRY_FOR (events wait that long)',
		)
		expect(hooks({ ...bus, WEBHOOK_JS_MAX_AGE: '800000000', WEBHOOK_RETRY_FOR: '700000000' })).toMatchObject({
			jsMaxBytes: 1073741824,
			jsMaxAgeMs: 800000000,
		})
		// The database outbox on a bus does not care about the stream's age.
		expect(hooks({ ...bus, WEBHOOK_OUTBOX: 'database', WEBHOOK_RETRY_FOR: '700000000' }).outbox).toBe(
			'database',
		)
	})
})
