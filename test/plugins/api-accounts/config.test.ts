import { describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { API_ACCOUNTS_SETTINGS } from '../../../plugins/api-accounts/settings'
import { builtInPlugins } from '../../../src/app'
import { loadConfig } from '../../../src/server/config'

const withDir = <T>(run: (dir: string) => T): T => {
	const dir = mkdtempSync(join(tmpdir(), 'ubg-config-'))
	try {
		return run(dir)
	} finally {
		rmSync(dir, { recursive: true, force: true })
	}
}

/** The plugin's settings as the app reads them when it loads api-accounts, after the core's. */
const familyB = (env: Record<string, string>) => {
	loadConfig(env)
	return API_ACCOUNTS_SETTINGS.read(env)
}

describe('family B configuration', () => {
	it('waits 5 seconds for the main server unless MAIN_SERVER_TIMEOUT says otherwise', () => {
		withDir((dir) => {
			expect(familyB({ DATA_DIR: dir }).mainServerTimeoutMs).toBe(5000)
			expect(familyB({ DATA_DIR: dir, MAIN_SERVER_TIMEOUT: '250' }).mainServerTimeoutMs).toBe(250)
		})
	})

	it.each([
		['MAIN_SERVER_TIMEOUT', '5s', 'MAIN_SERVER_TIMEOUT: must be a whole number'],
		['MAIN_SERVER_TIMEOUT', '0', 'MAIN_SERVER_TIMEOUT: must be at least 1'],
		['MAIN_SERVER_URL', 'main.example.org', 'MAIN_SERVER_URL: must be a URL'],
		['MAIN_SERVER_URL', 'ftp://main.example.org/', 'MAIN_SERVER_URL: must start with http:// or https://'],
		[
			'MAIN_SERVER_URL',
			'https://admin:hunter2@main.example.org/',
			'MAIN_SERVER_URL: must not carry a user name or password',
		],
	])('rejects %s=%s with one line naming it', (name, value, message) => {
		withDir((dir) => {
			expect(() => familyB({ DATA_DIR: dir, [name]: value })).toThrow(message)
		})
	})

	it('lists api-accounts among the plugins loaded by default', () => {
		expect(builtInPlugins.map((p) => p.id)).toContain('api-accounts')
	})
})
