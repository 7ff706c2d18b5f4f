import { describe, expect, it } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { builtInPlugins } from '../src/app'
import { loadConfig } from '../src/server/config'
import { variablesOf } from '../src/server/config/read'
import { CORE_INPUTS, CORE_SETTINGS } from '../src/server/config/settings'

/**
 * The configuration is declared once (src/server/config/settings.ts): each core variable in one
 * `setting('NAME', ...)`, `Config` derived from the declarations, and every variable, the core's and
 * the built-in plugins', in docs/configuration.md.
 */

const root = join(import.meta.dir, '..')
const core = [...variablesOf(CORE_SETTINGS), ...variablesOf(CORE_INPUTS)]
const plugins = builtInPlugins.flatMap((p) => p.settings?.names() ?? [])

function sources(dir: string): string[] {
	return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
		.filter((f) => f.endsWith('.ts'))
		.map((f) => readFileSync(join(root, dir, f), 'utf8'))
}

describe('the configuration, declared once', () => {
	it('declares each variable in exactly one setting(), core and plugins alike', () => {
		const text = [...sources('src'), ...sources('plugins')].join('\n')
		const all = [...core, ...plugins]
		expect(new Set(all).size).toBe(all.length)
		for (const name of all) {
			const declarations = text.split(new RegExp(`setting\\(\\s*'${name}'`)).length - 1
			expect({ name, declarations }).toEqual({ name, declarations: 1 })
		}
		// The core's own: server, database, secrets, runtime; none of the accounts plugin's.
		expect(core).toContain('PORT')
		expect(core).not.toContain('SMTP_URL')
		expect(plugins).toContain('SMTP_URL')
	})

	it('reads every declared field into Config, a group as an object', () => {
		const config = loadConfig(
			{ DATA_DIR: '/tmp/ubg-declared', JWT_SECRET: 'x'.repeat(32), SESSION_SECRET: 'y'.repeat(32) },
			{ secrets: 'env' },
		)
		for (const [field, entry] of Object.entries(CORE_SETTINGS)) {
			expect(config).toHaveProperty(field)
			if (!('env' in entry))
				for (const inner of Object.keys(entry)) expect(config).toHaveProperty([field, inner])
		}
		expect(config.updates.bufferAgeMs).toBe(3_600_000)
		expect(config.passwordHashConcurrency).toBeGreaterThanOrEqual(1)
	})

	it('lists every variable in docs/configuration.md', () => {
		const doc = readFileSync(join(root, 'docs/configuration.md'), 'utf8')
		const missing = [...core, ...plugins].filter((name) => !doc.includes(`\`${name}\``))
		expect(missing).toEqual([])
	})
})
